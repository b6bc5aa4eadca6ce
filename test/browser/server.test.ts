import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { directMessage, sendOk } from "../helpers/sending";
import { SINK_FROM, SmtpSink } from "../helpers/smtpSink";

/**
 * The admin console's Server section in Chromium: the figures as the API gives them, an owner
 * downloading a backup that opens as SQLite, administrators shown why they cannot, the recent
 * warnings, and the mail server card saving, testing (with the SMTP server's own words on
 * failure) and removing settings against a real SMTP server on loopback.
 */

setDefaultTimeout(60_000);

let org: Org;
let sink: SmtpSink;
/** A mail server that wants a user name and password, to refuse a wrong one in its own words. */
let guarded: SmtpSink;
let browser: Browser;
let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "parley-server-page-"));
  [sink, guarded] = await Promise.all([SmtpSink.start({ security: "none" }), SmtpSink.start({ security: "none", auth: { user: "parley", password: "right-password" } })]);
  [org, browser] = await Promise.all([seedOrg({ rateLimits: true }), launchBrowser()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await org?.server.dispose();
  await Promise.all([sink?.stop(), guarded?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
});

async function onServerSection(person: Person, options: { dark?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  page.on("dialog", (dialog) => void dialog.accept());
  await signIn(page, org.server.url, person.email, person.password);
  await page.goto(`${org.server.url}/admin/`);
  await page.getByRole("link", { name: "Server" }).click();
  await page.getByRole("heading", { name: "Server", exact: true }).waitFor();
  await page.getByRole("group", { name: "Messages" }).waitFor();
  return { context, page, errors };
}

/** Chromium logs every 4xx answer to the console; the refused test e-mails are expected ones. */
const refusedRequest = (error: string) => error.includes("the server responded with a status of 400");

const figure = (page: Page, label: string) => page.getByRole("group", { name: label, exact: true });

describeInBrowser("the Server section", () => {
  test("shows the figures the server reports, and its recent warnings", async () => {
    await sendOk(org.member, directMessage([org.member2.id], "one for the count"));
    const status = ok(await org.owner.api.get("/server/status"));
    const { context, page, errors } = await onServerSection(org.owner);
    await expect(figure(page, "Version").textContent()).resolves.toContain(status.version);
    await expect(figure(page, "Version").textContent()).resolves.toContain(`Feature level ${status.feature_level}`);
    expect(await figure(page, "Messages").locator(".stat-value").textContent()).toBe(String(status.counts.messages));
    expect(await figure(page, "People").locator(".stat-value").textContent()).toBe(String(status.counts.users));
    await expect(figure(page, "People").textContent()).resolves.toContain(`${status.counts.bots} bot`);
    await expect(figure(page, "Uploads").textContent()).resolves.toContain("0 files");
    await expect(figure(page, "Outbox").textContent()).resolves.toContain("Nothing waiting to be sent");
    for (const label of ["Uptime", "Database", "Event queues", "Events"]) await figure(page, label).waitFor();
    await expect(page.getByText(org.server.dataDir).textContent()).resolves.toBe(org.server.dataDir);
    // Started without a mail server: the start said so, and the page shows that warning.
    const warnings = page.getByRole("list", { name: "Recent warnings" });
    await warnings.getByText("No SMTP server configured").waitFor();
    await expect(warnings.locator("li").first().textContent()).resolves.toContain("Warning");

    // Refresh reads the figures again.
    await sendOk(org.member, directMessage([org.member2.id], "and one more"));
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.waitForFunction(
      (count) => document.querySelector('[aria-label="Messages"] .stat-value')?.textContent === String(count),
      status.counts.messages + 1,
    );
    await screenshots(page, "admin-server");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("an owner downloads a backup through the button, and it opens as an intact database", async () => {
    const sent = await sendOk(org.member, directMessage([org.member2.id], "kept in the backup"));
    const { context, page, errors } = await onServerSection(org.owner);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download a backup" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^parley-backup-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite3$/);
    const path = join(scratch, download.suggestedFilename());
    await download.saveAs(path);
    const db = new Database(path, { readonly: true });
    expect(db.query("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
    expect(db.query("SELECT content FROM messages WHERE id = ?").get(sent.id)).toEqual({ content: "kept in the backup" });
    db.close();
    // Still on the console: the download did not navigate away.
    await page.getByRole("heading", { name: "Server", exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("an administrator sees why there is no backup for them, and the server refuses their session too", async () => {
    const { context, page, errors } = await onServerSection(org.admin);
    const button = page.getByRole("button", { name: "Download a backup" });
    expect(await button.isDisabled()).toBe(true);
    await page.getByText("Only organization owners can download backups").waitFor();
    expect(await page.getByRole("link", { name: "Download a backup" }).count()).toBe(0);
    // The URL itself, with the administrator's session cookie.
    const refused = await page.request.get(`${org.server.url}/api/v1/server/backup`);
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization owner" });
    await screenshots(page, "admin-server-administrator");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the mail server card tests settings before saving them, saves, shows the server's own refusal, and removes them", async () => {
    const { context, page, errors } = await onServerSection(org.owner);
    const card = page.locator("section", { has: page.getByRole("heading", { name: "Mail server" }) });
    await card.getByText("No mail server is set up").waitFor();
    await card.getByLabel("Mail server").fill("127.0.0.1");
    await card.getByLabel("Security").selectOption("none");
    await card.getByLabel("Port").fill(String(sink.port));
    await card.getByLabel("Sender").fill(SINK_FROM);

    // Tried before saving: the mail arrives, and nothing is stored yet.
    await card.getByRole("button", { name: "Send a test e-mail" }).click();
    await card.getByText(`A test e-mail went to ${org.owner.email}`).waitFor();
    const [mail] = await sink.waitFor(1);
    expect(mail.recipients).toEqual([org.owner.email]);
    expect(ok(await org.owner.api.get("/server/smtp")).source).toBe("none");

    await card.getByRole("button", { name: "Save" }).click();
    await page.getByText("The mail server settings were saved.").waitFor();
    await card.getByText("Invitations and password resets go out through this server.").waitFor();
    const saved = ok(await org.owner.api.get("/server/smtp"));
    expect(saved).toMatchObject({ source: "database", smtp: { host: "127.0.0.1", port: sink.port, security: "none", user: null, from: SINK_FROM, password_set: false } });

    // A test to another address, through the saved settings.
    await card.getByLabel("Send a test e-mail to").fill("someone.else@example.com");
    await card.getByRole("button", { name: "Send a test e-mail" }).click();
    await card.getByText("A test e-mail went to someone.else@example.com").waitFor();
    expect((await sink.waitFor(2))[1].recipients).toEqual(["someone.else@example.com"]);

    // A server that refuses the sign-in: its words, exactly as the API reports them.
    await card.getByLabel("Port").fill(String(guarded.port));
    await card.getByLabel("User name").fill("parley");
    await card.getByLabel("Password").fill("wrong-password");
    await card.getByLabel("Send a test e-mail to").fill("");
    await card.getByRole("button", { name: "Send a test e-mail" }).click();
    const failure = card.getByRole("alert").filter({ hasText: "The test e-mail could not be sent." });
    await failure.waitFor();
    const refusal = await org.owner.api.post("/server/smtp/test", { host: "127.0.0.1", port: guarded.port, security: "none", user: "parley", password: "wrong-password", from: SINK_FROM });
    expect(refusal.body.smtp_error).toContain("Invalid username or password");
    expect(await failure.locator("pre").textContent()).toBe(refusal.body.smtp_error);
    await screenshots(page, "admin-server-mail");

    // The right password works, and is saved without being shown again.
    await card.getByLabel("Password").fill("right-password");
    await card.getByRole("button", { name: "Send a test e-mail" }).click();
    await card.getByText(`A test e-mail went to ${org.owner.email}`).waitFor();
    expect((await guarded.waitFor(1))[0].user).toBe("parley");
    await card.getByRole("button", { name: "Save" }).click();
    await card.getByText("Saved; leave empty to keep it.").waitFor();
    expect(await card.getByLabel("Password").inputValue()).toBe("");
    expect(ok(await org.owner.api.get("/server/smtp")).smtp).toMatchObject({ port: guarded.port, user: "parley", password_set: true });

    await card.getByRole("button", { name: "Remove" }).click();
    await page.getByText("The mail server settings were removed.").waitFor();
    await card.getByText("No mail server is set up").waitFor();
    expect(ok(await org.owner.api.get("/server/smtp"))).toMatchObject({ source: "none", smtp: null });
    expect(errors.filter((error) => !refusedRequest(error))).toEqual([]);
    await context.close();
  });

  test("settings from the environment are shown read-only, and can still be tested", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    // This server has no PARLEY_SMTP_*; the page is told it has, to see how it shows them.
    await page.route("**/api/v1/server/smtp", (route) =>
      route.request().method() === "GET"
        ? route.fulfill({ json: { result: "success", msg: "", source: "environment", smtp: { host: "smtp.example.com", port: 587, security: "starttls", user: "mailer", from: "Chat <chat@example.com>", password_set: true } } })
        : route.continue(),
    );
    await signIn(page, org.server.url, org.owner.email, org.owner.password);
    await page.goto(`${org.server.url}/admin/`);
    await page.getByRole("link", { name: "Server" }).click();
    const card = page.locator("section", { has: page.getByRole("heading", { name: "Mail server" }) });
    await card.getByText("Set by the server's environment").waitFor();
    expect(await card.getByLabel("Mail server").inputValue()).toBe("smtp.example.com");
    expect(await card.getByLabel("Mail server").isDisabled()).toBe(true);
    expect(await card.getByRole("button", { name: "Save" }).count()).toBe(0);
    expect(await card.getByRole("button", { name: "Remove" }).count()).toBe(0);
    expect(await card.getByLabel("Password").count()).toBe(0);
    // The test goes to the real server, which has no mail server: its answer is shown.
    await card.getByRole("button", { name: "Send a test e-mail" }).click();
    await card.getByText("No mail server is set up yet").waitFor();
    expect(errors.filter((error) => !refusedRequest(error))).toEqual([]);
    await context.close();
  });

  test("reads well in dark mode on a phone", async () => {
    const context = await newContext(browser, { phone: true, dark: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, org.server.url, org.owner.email, org.owner.password);
    await page.goto(`${org.server.url}/admin/server`);
    await page.getByRole("group", { name: "Messages" }).waitFor();
    await screenshots(page, "admin-server-dark");
    expect(errors).toEqual([]);
    await context.close();
  });
});
