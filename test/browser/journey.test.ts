import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots } from "../helpers/browser";
import { ApiClient } from "../helpers/client";
import { login, ok } from "../helpers/seed";
import { TestServer } from "../helpers/server";
import { SmtpSink } from "../helpers/smtpSink";
import { FAST_OUTBOX } from "../outbox/helpers";

/**
 * Issue 15's whole path on a fresh data dir, in Chromium, as the people involved would walk it:
 * the wizard, a test e-mail to a loopback SMTP sink, an invitation from the console, the
 * invitee signing up from the e-mail's link, the admin making them a moderator, a bot created
 * with its zuliprc downloaded, and the bot posting with exactly that file.
 */

setDefaultTimeout(90_000);

let browser: Browser;
let sink: SmtpSink;
let server: TestServer;

beforeAll(async () => {
  [browser, sink, server] = await Promise.all([launchBrowser(), SmtpSink.start({ security: "none" }), TestServer.start({ rateLimits: true, env: FAST_OUTBOX })]);
});
afterAll(async () => {
  await browser?.close();
  await sink?.stop();
  await server?.dispose();
});

const OWNER = { name: "Petra Owner", email: "petra@example.com", password: "petra-password" };
const INVITEE = { name: "Ivo Invitee", email: "ivo@example.com", password: "ivo-password" };

const heading = (page: Page, name: string) => page.getByRole("heading", { name, level: 1 }).waitFor();

/** The zuliprc's fields, as python-zulip-api's config parser reads them. */
const zuliprcFields = (text: string) =>
  Object.fromEntries(
    text
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")).trim(), line.slice(line.indexOf("=") + 1).trim()]),
  );

describeInBrowser("from a fresh data dir to a bot posting", () => {
  test("wizard, test e-mail, invitation accepted from the e-mail, moderator, bot and its zuliprc", async () => {
    // The owner's browser: the wizard.
    const ownerContext = await newContext(browser);
    const page = await ownerContext.newPage();
    const errors = collectPageErrors(page);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${server.url}/`);
    await heading(page, "Welcome to Parley");
    await page.getByLabel("Setup code").fill(server.setupCode!);
    await page.getByRole("button", { name: "Continue" }).click();
    await heading(page, "Your organization");
    await page.getByLabel("Organization name").fill("Journey Club");
    await page.getByRole("button", { name: "Continue" }).click();
    await heading(page, "Your account");
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("E-mail address").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByLabel("Confirm password").fill(OWNER.password);
    await page.getByRole("button", { name: "Create organization" }).click();

    // E-mail: the test message reaches the sink, then the settings are saved.
    await heading(page, "E-mail");
    await page.getByLabel("Mail server").fill("127.0.0.1");
    await page.getByLabel("Security").selectOption("none");
    await page.getByLabel("Port").fill(String(sink.port));
    await page.getByLabel("Sender").fill("Journey Club <chat@journey.test>");
    await page.getByRole("button", { name: "Send me a test e-mail" }).click();
    await page.getByText(`A test e-mail went to ${OWNER.email}.`).waitFor();
    const [testMail] = await sink.waitFor(1);
    expect(testMail).toMatchObject({ recipients: [OWNER.email], sender: "chat@journey.test" });
    await page.getByRole("button", { name: "Save and continue" }).click();
    await heading(page, "Channels");
    await page.getByLabel("Channel name").fill("general");
    await page.getByRole("button", { name: "Create channel" }).click();
    await page.getByRole("list", { name: "Channels so far" }).getByText("#general").waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await heading(page, "Invite people");
    await page.getByRole("button", { name: "Finish" }).click();
    await heading(page, "Journey Club is ready");
    await Promise.all([page.waitForURL((url) => url.pathname === "/admin/"), page.getByRole("link", { name: "Go to the admin console" }).click()]);
    await heading(page, "People");

    // The console: invite a person by e-mail.
    await page.getByRole("link", { name: "Invitations" }).click();
    await heading(page, "Invitations");
    await page.getByLabel("E-mail addresses").fill(INVITEE.email);
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("Invitation sent.").waitFor();
    const invitation = (await sink.waitFor(2))[1];
    expect(invitation.recipients).toEqual([INVITEE.email]);
    const link = invitation.text.match(/https?:\/\/\S+\/join\/\S+/)![0];
    expect(link.startsWith(`${server.url}/join/`)).toBe(true);

    // The invitee, in a browser of their own, signs up from the e-mail's link.
    const inviteeContext = await newContext(browser, { phone: true });
    const invitee = await inviteeContext.newPage();
    await invitee.goto(link);
    await invitee.getByRole("heading", { name: /^Join / }).waitFor();
    await invitee.getByLabel("Your name").fill(INVITEE.name);
    await invitee.getByLabel("Password").fill(INVITEE.password);
    await Promise.all([invitee.waitForURL((url) => url.pathname === "/"), invitee.getByRole("button", { name: "Create my account" }).click()]);
    const ivo = await login(new ApiClient(server.url), INVITEE.email, INVITEE.password);
    expect(ok(await ivo.api.get("/users/me"))).toMatchObject({ full_name: INVITEE.name, role: 400 });

    // The owner makes them a moderator on the People page.
    await page.getByRole("link", { name: "People" }).click();
    await heading(page, "People");
    const ivoRow = page.locator(`tr[data-user-id="${ivo.id}"]`);
    await ivoRow.waitFor();
    await ivoRow.getByLabel(`Role of ${INVITEE.name}`).selectOption({ label: "Moderator" });
    await page.getByText(`${INVITEE.name} is now moderator.`).waitFor();
    expect(ok(await ivo.api.get("/users/me")).role).toBe(300);
    await screenshots(page, "journey-people");

    // A bot, its zuliprc downloaded, and the bot posting with exactly that file.
    await page.getByRole("link", { name: "Bots" }).click();
    await heading(page, "Bots");
    await page.getByRole("button", { name: "Create a bot" }).click();
    const form = page.getByRole("dialog", { name: "Create a bot" });
    await form.getByLabel("Name", { exact: true }).fill("Journey Bot");
    await form.getByRole("button", { name: "Create bot" }).click();
    const credentials = page.getByRole("dialog", { name: "Credentials of Journey Bot" });
    await credentials.getByText("Journey Bot was created.").waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), credentials.getByRole("button", { name: "Download zuliprc" }).click()]);
    const rc = zuliprcFields(readFileSync((await download.path())!, "utf8"));
    expect(rc.site).toBe(server.url);
    const sent = await fetch(`${rc.site}/api/v1/messages`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${rc.email}:${rc.key}`).toString("base64")}` },
      body: new URLSearchParams({ type: "stream", to: "general", topic: "hello", content: "The bot made it." }),
    });
    const answer = await sent.json();
    expect(answer.result).toBe("success");
    // The invitee joined the wizard's channel (a default one) and reads it there.
    const seen = ok(await ivo.api.get(`/messages/${answer.id}`)).message;
    expect(seen).toMatchObject({ sender_full_name: "Journey Bot", content: "<p>The bot made it.</p>" });
    await credentials.getByRole("button", { name: "Done" }).click();
    expect(errors).toEqual([]);
    await inviteeContext.close();
    await ownerContext.close();
  });
});
