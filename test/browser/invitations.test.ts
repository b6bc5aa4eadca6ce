import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { createChannel } from "../helpers/channels";
import { ApiClient } from "../helpers/client";
import { OWNER, login, ok, seedOrg, startInitializedServer, type Org } from "../helpers/seed";
import type { TestServer } from "../helpers/server";
import { SmtpSink } from "../helpers/smtpSink";

/**
 * The Invitations section in Chromium: with a mail server, invitations go out by e-mail and the
 * invitee joins from the mail's link; a reusable link is made and revoked; pending invitations
 * show their expiry and can be resent. Without one, the links are shown to copy.
 */

setDefaultTimeout(60_000);

let org: Org;
let sink: SmtpSink;
let noMail: TestServer;
let browser: Browser;

beforeAll(async () => {
  sink = await SmtpSink.start();
  [org, noMail, browser] = await Promise.all([seedOrg({ rateLimits: true, env: sink.env({ PARLEY_OUTBOX_SWEEP_SECONDS: "1" }) }), startInitializedServer({ rateLimits: true }), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([org?.server.dispose(), noMail?.dispose()]);
  await sink?.stop();
});

/** A link the server wrote with the organization's URL, pointed at a test server. */
const local = (link: string, server: TestServer = org.server) => `${server.url}${new URL(link).pathname}`;

async function mailsTo(address: string, count = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = sink.received.filter((mail) => mail.recipients.includes(address));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`expected ${count} mails to ${address}, got ${found.length}`);
    await Bun.sleep(50);
  }
}

async function onInvitations(server: TestServer, email: string, password: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  page.on("dialog", (dialog) => void dialog.accept());
  await signIn(page, server.url, email, password);
  await page.goto(`${server.url}/admin/`);
  await page.getByRole("link", { name: "Invitations" }).click();
  await page.getByRole("heading", { name: "Invitations" }).waitFor();
  await page.getByRole("heading", { name: "Pending" }).waitFor();
  return { context, page, errors };
}

/** The invitee opens the link in their own browser and signs up. */
async function join(link: string, fullName: string, password: string, email?: string) {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(link);
  await page.getByRole("heading", { name: /^Join / }).waitFor();
  if (email) await page.getByLabel("Your e-mail address").fill(email);
  await page.getByLabel("Your name").fill(fullName);
  await page.getByLabel("Password").fill(password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/join/")), page.getByRole("button", { name: "Create my account" }).click()]);
  return { context, page };
}

const pendingRow = (page: Page, text: string) => page.locator("tr[data-invite]", { hasText: text });

describeInBrowser("with a mail server", () => {
  test("an invitation by e-mail: the mail's link signs the invitee up with the role and channel chosen", async () => {
    const channel = await createChannel(org, org.admin, {}, "welcome-room");
    const { context, page, errors } = await onInvitations(org.server, org.admin.email, org.admin.password);
    await page.getByLabel("E-mail addresses").fill("nina.new@example.com");
    await page.locator("#invite-role").selectOption({ label: "Moderator" });
    await page.locator("#invite-expiry").selectOption({ label: "3 days" });
    await page.getByLabel("#welcome-room").check();
    // An administrator may not invite owners.
    expect(await page.locator("#invite-role option", { hasText: "Owner" }).count()).toBe(0);
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("Invitation sent.").waitFor();

    const row = pendingRow(page, "nina.new@example.com");
    await row.waitFor();
    expect(await row.locator('td[data-label="Role"]').innerText()).toBe("Moderator");
    expect(await row.locator('td[data-label="Invited by"]').innerText()).toBe("Ada Admin");
    expect(await row.locator('td[data-label="Expires"]').innerText()).toContain("in 3 days");
    const [listed] = ok(await org.admin.api.get("/invites")).invites.filter((invite: any) => invite.email === "nina.new@example.com");
    expect(listed.expiry_date - listed.invited).toBe(3 * 24 * 3600);

    const [mail] = await mailsTo("nina.new@example.com");
    const link = /https?:\/\/\S+\/join\/\S+\//.exec(mail.text)![0];
    const invitee = await join(local(link), "Nina New", "nina-password");
    expect(new URL(invitee.page.url()).pathname).toBe("/");
    const me = await (await invitee.context.request.get(`${org.server.url}/api/v1/users/me`)).json();
    expect(me).toMatchObject({ full_name: "Nina New", role: 300 });
    const nina = await login(new ApiClient(org.server.url), "nina.new@example.com", "nina-password");
    const subscribed = ok(await nina.api.get("/users/me/subscriptions")).subscriptions.map((sub: any) => sub.stream_id);
    expect(subscribed).toContain(channel);

    // Used: gone from the list once it is reloaded.
    await page.reload();
    await page.getByRole("heading", { name: "Pending" }).waitFor();
    await page.locator("table, .empty").first().waitFor();
    expect(await pendingRow(page, "nina.new@example.com").count()).toBe(0);
    expect(errors).toEqual([]);
    await Promise.all([context.close(), invitee.context.close()]);
  });

  test("Resend mails the same invitation again", async () => {
    const { context, page, errors } = await onInvitations(org.server, org.admin.email, org.admin.password);
    await page.getByLabel("E-mail addresses").fill("rex.resend@example.com");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("Invitation sent.").waitFor();
    const [first] = await mailsTo("rex.resend@example.com");
    await pendingRow(page, "rex.resend@example.com").getByRole("button", { name: "Resend", exact: true }).click();
    await page.getByText("Sent the invitation to rex.resend@example.com again.").waitFor();
    const mails = await mailsTo("rex.resend@example.com", 2);
    const linkOf = (text: string) => /https?:\/\/\S+\/join\/\S+\//.exec(text)![0];
    expect(linkOf(mails[1].text)).toBe(linkOf(first.text));
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a reusable link is created, listed with its expiry, and revoked", async () => {
    const { context, page, errors } = await onInvitations(org.server, org.admin.email, org.admin.password);
    await page.getByRole("tab", { name: "Reusable link" }).click();
    await page.locator("#link-role").selectOption({ label: "Guest" });
    await page.locator("#link-expiry").selectOption({ label: "Never expires" });
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByLabel("Your reusable link").waitFor();
    const link = await page.getByLabel("Your reusable link").inputValue();
    expect(link).toMatch(/\/join\/\w+\/$/);

    const listed = ok(await org.admin.api.get("/invites")).invites.find((invite: any) => invite.link_url === link);
    const row = page.locator(`tr[data-invite="link-${listed.id}"]`);
    await row.waitFor();
    expect(await row.locator('td[data-label="Role"]').innerText()).toBe("Guest");
    expect(await row.locator('td[data-label="Expires"]').innerText()).toBe("Never");
    await screenshots(page, "admin-invitations");

    expect((await fetch(local(link))).status).toBe(200);
    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByText("Revoked the reusable link.").waitFor();
    await row.waitFor({ state: "detached" });
    expect(ok(await org.admin.api.get("/invites")).invites.some((invite: any) => invite.link_url === link)).toBe(false);
    expect((await fetch(local(link))).status).toBe(410);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("addresses that already have an account are named; the rest are invited", async () => {
    const { context, page, errors } = await onInvitations(org.server, org.admin.email, org.admin.password);
    await page.getByLabel("E-mail addresses").fill(`${org.member.email}\nolga.other@example.com`);
    await page.getByRole("button", { name: "Send invitations" }).click();
    const notice = page.getByRole("alert").filter({ hasText: "already using Parley" });
    await notice.waitFor();
    expect(await notice.innerText()).toContain(`${org.member.email}: Already has an account.`);
    await pendingRow(page, "olga.other@example.com").waitFor();
    // The refusal is a 400 answer, which Chromium logs; nothing else may be.
    expect(errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
    await context.close();
  });
});

describeInBrowser("without a mail server", () => {
  test("invitations by e-mail give links to copy, and a link works", async () => {
    const { context, page, errors } = await onInvitations(noMail, OWNER.email, OWNER.password);
    await page.getByLabel("E-mail addresses").fill("first.person@example.com, second.person@example.com");
    await page.locator("#invite-role").selectOption({ label: "Member" });
    await page.getByRole("button", { name: /^(Send invitations|Create invitation links)$/ }).click();
    await page.getByText("No e-mail was sent: this server cannot send mail.").waitFor();
    const first = await page.getByLabel("Invitation link for first.person@example.com").inputValue();
    const second = await page.getByLabel("Invitation link for second.person@example.com").inputValue();
    expect(first).not.toBe(second);
    await pendingRow(page, "second.person@example.com").waitFor();
    await screenshots(page, "admin-invitations-links");

    const invitee = await join(local(first, noMail), "First Person", "first-password");
    expect(new URL(invitee.page.url()).pathname).toBe("/");
    const owner = await login(new ApiClient(noMail.url), OWNER.email, OWNER.password);
    const joined = ok(await owner.api.get("/users")).members.find((user: any) => user.full_name === "First Person");
    expect(joined.role).toBe(400);

    // People: a password reset cannot be mailed here, so the dialog offers the one-time link only.
    await page.getByRole("link", { name: "People" }).click();
    await page.locator(`tr[data-user-id="${joined.user_id}"]`).getByRole("button", { name: "Reset password" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset the password of First Person" });
    await dialog.getByText("This server cannot send e-mail, so create a one-time link").waitFor();
    expect(await dialog.getByRole("button", { name: "Send a reset e-mail" }).isDisabled()).toBe(true);
    await dialog.getByRole("button", { name: "Create a one-time link" }).click();
    expect(await dialog.getByLabel("One-time link").inputValue()).toContain("/reset/");
    expect(errors).toEqual([]);
    await Promise.all([context.close(), invitee.context.close()]);
  });
});
