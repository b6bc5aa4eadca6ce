import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createServer } from "node:net";
import type { Browser, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots } from "../helpers/browser";
import { ApiClient } from "../helpers/client";
import { login, ok } from "../helpers/seed";
import { TestServer } from "../helpers/server";
import { SmtpSink } from "../helpers/smtpSink";
import { FAST_OUTBOX } from "../outbox/helpers";

/**
 * The first-run wizard in Chromium, as a person walks it on a fresh server: the setup code,
 * the organization, the owner, e-mail (a failing test, then one that arrives), a channel, an
 * invitation, and on into the console; then a second server walked on a dark phone, skipping
 * e-mail, where invitations come back as links to copy.
 */

setDefaultTimeout(60_000);

let browser: Browser;
let sink: SmtpSink;
let closedPort: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  [browser, sink, closedPort] = await Promise.all([launchBrowser(), SmtpSink.start({ security: "none" }), freePort()]);
});
afterAll(async () => {
  await browser?.close();
  await sink?.stop();
});

/** The page's errors, less the console lines Chromium writes for answers the test provokes (403 for a wrong code). */
const unexpected = (errors: string[]) => errors.filter((error) => !/Failed to load resource: the server responded with a status of 40[03]/.test(error));

const heading = (page: Page, name: string) => page.getByRole("heading", { name, level: 1 }).waitFor();

const OWNER = { name: "Olga Owner", email: "olga@example.com", password: "olga-password" };

describeInBrowser("the setup wizard", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ rateLimits: true, env: FAST_OUTBOX });
  });
  afterAll(() => server?.dispose());

  test("walks a fresh server from the setup code to the admin console", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    // 1. The setup code: where to find it, a wrong one refused, the right one accepted.
    await page.goto(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe("/setup/");
    await heading(page, "Welcome to Parley");
    await page.getByText("journalctl -u parley").waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("Enter the setup code from the server’s log.").waitFor();
    await page.getByLabel("Setup code").fill("ABCD-EFGH-JKLM");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("That is not the setup code. Check the server’s log: a restart prints a new one.").waitFor();
    await screenshots(page, "setup-1-code");
    await page.getByLabel("Setup code").fill(server.setupCode!.toLowerCase());
    await page.getByRole("button", { name: "Continue" }).click();

    // 2. The organization: its URL detected from the address bar, checked before going on.
    await heading(page, "Your organization");
    expect(await page.getByLabel("Organization URL").inputValue()).toBe(server.url);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("The organization needs a name.").waitFor();
    await page.getByLabel("Organization name").fill("Acme Rockets");
    await page.getByLabel("Organization URL").fill(`${server.url}/chat`);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("Only the address of the server, with nothing after it").waitFor();
    await screenshots(page, "setup-2-organization");
    await page.getByLabel("Organization URL").fill(`${server.url}/`);
    await page.getByRole("button", { name: "Continue" }).click();

    // 3. The owner: checked as typed, then the organization is created and the owner signed in.
    await heading(page, "Your account");
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("E-mail address").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByLabel("Confirm password").fill("something-else");
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.getByText("The two passwords differ.").waitFor();
    await screenshots(page, "setup-3-account");
    expect(ok(await new ApiClient(server.url).get("/server_settings")).realm_name).toBeUndefined();
    await page.getByLabel("Confirm password").fill(OWNER.password);
    await page.getByRole("button", { name: "Create organization" }).click();
    await heading(page, "E-mail");
    expect(ok(await new ApiClient(server.url).get("/server_settings"))).toMatchObject({ realm_name: "Acme Rockets", realm_url: server.url });
    const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
    expect(ok(await owner.api.get("/users/me"))).toMatchObject({ full_name: OWNER.name, role: 100 });

    // 4. E-mail: a test through a closed port shows the connection's words; through the sink it arrives; then saved.
    await screenshots(page, "setup-4-email");
    await page.getByLabel("Mail server").fill("127.0.0.1");
    await page.getByLabel("Security").selectOption("none");
    expect(await page.getByLabel("Port").inputValue()).toBe("25");
    await page.getByLabel("Port").fill(String(closedPort));
    expect(await page.getByLabel("Sender").inputValue()).toBe("Parley <noreply@127.0.0.1>");
    await page.getByLabel("Sender").fill("Acme Chat <chat@parley.test>");
    await page.getByRole("button", { name: "Send me a test e-mail" }).click();
    await page.getByText(`connect ECONNREFUSED 127.0.0.1:${closedPort}`).waitFor();
    await screenshots(page, "setup-4-email-failed");
    expect(sink.received).toEqual([]);
    await page.getByLabel("Port").fill(String(sink.port));
    await page.getByRole("button", { name: "Send me a test e-mail" }).click();
    await page.getByText(`A test e-mail went to ${OWNER.email}.`).waitFor();
    const [testMail] = await sink.waitFor(1);
    expect(testMail).toMatchObject({ recipients: [OWNER.email], subject: "Parley test message", sender: "chat@parley.test" });
    await screenshots(page, "setup-4-email-sent");
    expect(ok(await owner.api.get("/server/smtp")).source).toBe("none");
    await page.getByRole("button", { name: "Save and continue" }).click();

    // 5. Channels: one created, which everyone who joins is subscribed to.
    await heading(page, "Channels");
    expect(ok(await owner.api.get("/server/smtp"))).toMatchObject({ source: "database", smtp: { host: "127.0.0.1", port: sink.port, security: "none", from: "Acme Chat <chat@parley.test>" } });
    await page.getByLabel("Channel name").fill("rockets");
    await page.getByLabel("Description").fill("Everything about rockets");
    await page.getByRole("button", { name: "Create channel" }).click();
    const list = page.getByRole("list", { name: "Channels so far" });
    await list.getByText("#rockets").waitFor();
    await list.getByText("everyone joins").waitFor();
    await screenshots(page, "setup-5-channels");
    const channels = ok(await owner.api.get("/streams", { include_default: true })).streams;
    expect(channels.find((channel: { name: string }) => channel.name === "rockets")).toMatchObject({ description: "Everything about rockets", is_default: true });
    await page.getByRole("button", { name: "Continue" }).click();

    // 6. Invitations: mailed through the saved settings.
    await heading(page, "Invite people");
    await page.getByLabel("E-mail addresses").fill("ann@example.com");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("Invitations were e-mailed to ann@example.com.").waitFor();
    const invitation = (await sink.waitFor(2))[1];
    expect(invitation).toMatchObject({ recipients: ["ann@example.com"], subject: "Olga Owner invited you to Acme Rockets" });
    expect(invitation.text).toContain(`${server.url}/join/`);
    await screenshots(page, "setup-6-invitations");
    await page.getByRole("button", { name: "Finish" }).click();

    // The end, and on into the console, signed in already.
    await heading(page, "Acme Rockets is ready");
    await page.getByText("Channels created: #rockets.").waitFor();
    await screenshots(page, "setup-7-done");
    await Promise.all([page.waitForURL((url) => url.pathname === "/admin/"), page.getByRole("link", { name: "Go to the admin console" }).click()]);
    await heading(page, "People");
    expect(unexpected(errors)).toEqual([]);
    await context.close();

    // Anyone else, later, gets sign-in: never the wizard again.
    const stranger = await newContext(browser);
    const other = await stranger.newPage();
    for (const path of ["/", "/setup/", "/setup"]) {
      await other.goto(`${server.url}${path}`);
      expect(new URL(other.url()).pathname).toBe("/login");
      await other.getByRole("heading", { name: "Sign in to Acme Rockets" }).waitFor();
    }
    await stranger.close();
  });
});

describeInBrowser("the setup wizard on a dark phone, without e-mail", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.start({ rateLimits: true });
  });
  afterAll(() => server?.dispose());

  test("skips e-mail and channels, and hands out invitation links to copy", async () => {
    const context = await newContext(browser, { phone: true, dark: true });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.url}/setup/`);
    await heading(page, "Welcome to Parley");
    await screenshots(page, "setup-dark-1-code");
    await page.getByLabel("Setup code").fill(server.setupCode!);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Organization name").fill("Night Shift");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Your name").fill("Nina Night");
    await page.getByLabel("E-mail address").fill("nina@example.com");
    await page.getByLabel("Password", { exact: true }).fill("nina-password");
    await page.getByLabel("Confirm password").fill("nina-password");
    await page.getByRole("button", { name: "Create organization" }).click();
    await heading(page, "E-mail");
    await screenshots(page, "setup-dark-4-email");
    await page.getByRole("button", { name: "Skip" }).click();
    await heading(page, "Channels");
    await page.getByRole("button", { name: "Skip" }).click();
    await heading(page, "Invite people");
    await page.getByLabel("E-mail addresses").fill("bo@example.com, cy@example.com");
    await page.getByRole("button", { name: "Send invitations" }).click();
    await page.getByText("No mail server is set up, so nothing was e-mailed.").waitFor();
    const link = await page.getByLabel("Invitation link for cy@example.com").inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/join/\\S+/$`));
    expect(await page.getByRole("button", { name: "Copy" }).count()).toBe(2);
    await screenshots(page, "setup-dark-6-invitation-links");
    // The link works: the invited person joins.
    const joined = await fetch(`${server.url}${new URL(link).pathname}`, { method: "POST", body: new URLSearchParams({ full_name: "Cy", password: "cy-password" }) });
    expect(joined.status).toBe(200);
    await login(new ApiClient(server.url), "cy@example.com", "cy-password");
    await page.getByRole("button", { name: "Finish" }).click();
    await heading(page, "Night Shift is ready");
    await page.getByText("No mail server yet").waitFor();
    await screenshots(page, "setup-dark-7-done");
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
