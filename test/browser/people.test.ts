import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { ApiClient } from "../helpers/client";
import { createPerson, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SmtpSink } from "../helpers/smtpSink";

/**
 * The People section in Chromium: an administrator resets a password by one-time link and by
 * e-mail, and the person sets a new one on the link's page; "Forgot your password?" from the
 * sign-in page; role changes, deactivation and reactivation. What the server holds is checked
 * over the API.
 */

setDefaultTimeout(60_000);

let org: Org;
let sink: SmtpSink;
let browser: Browser;

beforeAll(async () => {
  sink = await SmtpSink.start();
  [org, browser] = await Promise.all([seedOrg({ rateLimits: true, env: sink.env({ PARLEY_OUTBOX_SWEEP_SECONDS: "1" }) }), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await org?.server.dispose();
  await sink?.stop();
});

/** A link the server wrote with the organization's URL, pointed at the test server. */
const local = (link: string) => `${org.server.url}${new URL(link).pathname}`;

const signsIn = async (email: string, password: string) => (await new ApiClient(org.server.url).post("/fetch_api_key", { username: email, password })).status === 200;

async function adminOnPeople(options: { dark?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signIn(page, org.server.url, org.admin.email, org.admin.password);
  await page.goto(`${org.server.url}/admin/`);
  await page.getByRole("heading", { name: "People" }).waitFor();
  return { context, page, errors };
}

const row = (page: Page, person: Person) => page.locator(`tr[data-user-id="${person.id}"]`);

/** Someone opens a reset link in their own browser and chooses a new password. */
async function chooseNewPassword(link: string, password: string, screenshotName?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(local(link));
  await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("New password again").fill(password);
  if (screenshotName) await screenshots(page, screenshotName);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/reset/")), page.getByRole("button", { name: "Set my new password" }).click()]);
  return { context, page };
}

describeInBrowser("resetting a password from the People section", () => {
  test("by one-time link: the person opens it in another browser, sets a new password and lands signed in", async () => {
    const person = await createPerson(org.owner, org.anon, "Rita Reset");
    const { context, page, errors } = await adminOnPeople();
    await row(page, person).getByRole("button", { name: "Reset password" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset the password of Rita Reset" });
    await dialog.getByRole("button", { name: "Create a one-time link" }).click();
    const linkField = dialog.getByLabel("One-time link");
    await linkField.waitFor();
    const link = await linkField.inputValue();
    expect(link).toMatch(/\/reset\/[\w-]{43}$/);
    await expect(dialog.getByText(/Works once, until/).isVisible()).resolves.toBe(true);
    await screenshots(page, "admin-people-reset");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "hidden" });

    // The person was signed in somewhere before: that session ends with the reset.
    const before = await newContext(browser);
    const beforePage = await before.newPage();
    await signIn(beforePage, org.server.url, person.email, person.password);

    const reset = await chooseNewPassword(link, "rita-new-password", "reset-page");
    // Signed in, in the chat.
    expect(new URL(reset.page.url()).pathname).toBe("/");
    const me = await reset.context.request.get(`${org.server.url}/api/v1/users/me`);
    expect((await me.json()).user_id).toBe(person.id);
    expect((await (await before.request.get(`${org.server.url}/api/v1/users/me`)).json()).code).toBe("UNAUTHORIZED");

    expect(await signsIn(person.email, "rita-new-password")).toBe(true);
    expect(await signsIn(person.email, person.password)).toBe(false);
    // The link is spent.
    await reset.page.goto(local(link));
    await reset.page.getByRole("heading", { name: "This reset link was already used" }).waitFor();

    expect(errors).toEqual([]);
    await Promise.all([context.close(), before.close(), reset.context.close()]);
  });

  test("by e-mail: the mail's link works; the dialog says where it went (dark mode)", async () => {
    const person = await createPerson(org.owner, org.anon, "Emil Mailed");
    const { context, page, errors } = await adminOnPeople({ dark: true });
    await row(page, person).getByRole("button", { name: "Reset password" }).click();
    const dialog = page.getByRole("dialog", { name: "Reset the password of Emil Mailed" });
    await dialog.getByRole("button", { name: "Send a reset e-mail" }).click();
    await dialog.getByText(`We sent a reset link to ${person.email}`).waitFor();
    await screenshots(page, "admin-people-reset-mailed-dark");

    const deadline = Date.now() + 10_000;
    while (!sink.received.some((mail) => mail.recipients.includes(person.email))) {
      if (Date.now() > deadline) throw new Error("no reset mail arrived");
      await Bun.sleep(50);
    }
    const mail = sink.received.find((mail) => mail.recipients.includes(person.email))!;
    const link = /https?:\/\/\S+\/reset\/[\w-]+/.exec(mail.text)![0];
    const reset = await chooseNewPassword(link, "emil-new-password");
    expect(await signsIn(person.email, "emil-new-password")).toBe(true);
    expect(errors).toEqual([]);
    await Promise.all([context.close(), reset.context.close()]);
  });

  test("an administrator is offered no reset for an owner or themselves", async () => {
    const { context, page } = await adminOnPeople();
    await row(page, org.member).getByRole("button", { name: "Reset password" }).waitFor();
    expect(await row(page, org.owner).getByRole("button", { name: "Reset password" }).count()).toBe(0);
    expect(await row(page, org.admin).getByRole("button", { name: "Reset password" }).count()).toBe(0);
    await context.close();
  });
});

describeInBrowser("Forgot your password?", () => {
  test("from the sign-in page: the address, then the same answer for everyone, then the mail's link", async () => {
    const person = await createPerson(org.owner, org.anon, "Fern Forgetful");
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${org.server.url}/login`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await page.getByLabel("E-mail address").fill(person.email);
    await screenshots(page, "forgot-page");
    await page.getByRole("button", { name: "Send me a reset link" }).click();
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    expect(await page.getByText(`If an account exists for ${person.email}, we sent a link to it.`).isVisible()).toBe(true);
    await screenshots(page, "forgot-sent");

    const deadline = Date.now() + 10_000;
    while (!sink.received.some((mail) => mail.recipients.includes(person.email))) {
      if (Date.now() > deadline) throw new Error("no reset mail arrived");
      await Bun.sleep(50);
    }
    const mail = sink.received.find((mail) => mail.recipients.includes(person.email))!;
    const reset = await chooseNewPassword(/https?:\/\/\S+\/reset\/[\w-]+/.exec(mail.text)![0], "fern-new-password");
    expect(await signsIn(person.email, "fern-new-password")).toBe(true);
    expect(errors).toEqual([]);
    await Promise.all([context.close(), reset.context.close()]);
  });
});

describeInBrowser("roles and deactivation from the People section", () => {
  test("the role select changes the role; Deactivate and Reactivate change the account", async () => {
    const person = await createPerson(org.owner, org.anon, "Rosa Roles");
    const { context, page, errors } = await adminOnPeople();
    page.on("dialog", (dialog) => void dialog.accept());
    const role = row(page, person).getByLabel("Role of Rosa Roles");
    await role.selectOption({ label: "Moderator" });
    await page.getByText("Rosa Roles is now moderator.").waitFor();
    expect(ok(await org.admin.api.get(`/users/${person.id}`)).user.role).toBe(300);
    // An administrator cannot make owners: the choice is not offered.
    expect(await role.locator("option", { hasText: "Owner" }).count()).toBe(0);

    await row(page, person).getByRole("button", { name: "Deactivate" }).click();
    await page.getByText("Rosa Roles was deactivated.").waitFor();
    expect(ok(await org.admin.api.get(`/users/${person.id}`)).user.is_active).toBe(false);
    expect(await signsIn(person.email, person.password)).toBe(false);

    await page.getByLabel("Show").selectOption({ label: "Deactivated" });
    await row(page, person).getByRole("button", { name: "Reactivate" }).click();
    await page.getByText("Rosa Roles was reactivated.").waitFor();
    expect(ok(await org.admin.api.get(`/users/${person.id}`)).user.is_active).toBe(true);
    expect(await signsIn(person.email, person.password)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
