import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { ApiClient } from "../helpers/client";
import { subscribe } from "../helpers/channels";
import { expectError, ok, seedOrg, type Org } from "../helpers/seed";

/** The admin console's Bots section, clicked through as an administrator would. */

let org: Org;
let browser: Browser;

beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  browser = await launchBrowser();
  await subscribe(org.admin, ["bot posts"]);
});
afterAll(async () => {
  await browser?.close();
  await org?.server.stop();
});

async function openBots(options: { dark?: boolean; phone?: boolean } = {}) {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  // Deactivating and regenerating ask first; the person says yes.
  page.on("dialog", (dialog) => dialog.accept());
  await signIn(page, org.server.url, org.admin.email, org.admin.password);
  await page.goto(`${org.server.url}/admin/bots`);
  await page.getByRole("heading", { name: "Bots" }).waitFor();
  await page.locator(`tr[data-bot-id="${org.bot.id}"]`).waitFor();
  return { context, page, errors };
}

const row = (page: Page, name: string) => page.locator("tr", { has: page.getByText(name, { exact: true }) });

/** Fills and submits the creation dialog, and waits for the new bot's credentials. */
async function createBot(page: Page, fields: { type?: string; name: string; username?: string; endpoint?: string; format?: string }) {
  await page.getByRole("button", { name: "Create a bot" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a bot" });
  if (fields.type) await dialog.getByLabel("Type").selectOption({ label: fields.type });
  await dialog.getByLabel("Name", { exact: true }).fill(fields.name);
  if (fields.username) await dialog.getByLabel("Username").fill(fields.username);
  if (fields.endpoint) await dialog.getByLabel("Endpoint URL").fill(fields.endpoint);
  if (fields.format) await dialog.getByLabel("Format").selectOption({ label: fields.format });
  await dialog.getByRole("button", { name: "Create bot" }).click();
  const credentials = page.getByRole("dialog", { name: `Credentials of ${fields.name}` });
  await credentials.getByText(`${fields.name} was created.`).waitFor();
  return credentials;
}

const basic = (email: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${key}`).toString("base64")}` });

describeInBrowser("the Bots section", () => {
  test("lists the organization's bots with owner and type", async () => {
    const { context, page, errors } = await openBots();
    const helper = page.locator(`tr[data-bot-id="${org.bot.id}"]`);
    expect(await helper.textContent()).toContain("Helper Bot");
    expect(await helper.getByText("Mel Member").count()).toBe(1);
    expect(await helper.getByText("Generic").count()).toBe(1);
    await screenshots(page, "admin-bots");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("an administrator creates a generic bot, downloads its zuliprc, and the bot posts with exactly those credentials", async () => {
    const { context, page, errors } = await openBots();
    await page.getByRole("button", { name: "Create a bot" }).click();
    const form = page.getByRole("dialog", { name: "Create a bot" });
    await form.getByLabel("Name", { exact: true }).fill("Deploy Bot");
    // The username is suggested from the name.
    expect(await form.getByLabel("Username").inputValue()).toBe("deploy");
    await screenshots(page, "admin-bots-create");
    await form.getByRole("button", { name: "Create bot" }).click();
    const credentials = page.getByRole("dialog", { name: "Credentials of Deploy Bot" });
    await credentials.getByText("Deploy Bot was created.").waitFor();
    await screenshots(page, "admin-bots-credentials");

    const [download] = await Promise.all([page.waitForEvent("download"), credentials.getByRole("button", { name: "Download zuliprc" }).click()]);
    expect(download.suggestedFilename()).toBe("zuliprc");
    const zuliprc = readFileSync((await download.path())!, "utf8");
    const fields = Object.fromEntries(zuliprc.split("\n").filter((line) => line.includes("=")).map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
    expect(zuliprc.startsWith("[api]\n")).toBe(true);
    expect(fields.email).toBe("deploy-bot@localhost");
    expect(await credentials.getByLabel("API key").inputValue()).toBe(fields.key);

    // The bot posts a message with the file's address and key, as python-zulip-api would.
    const sent = await fetch(`${org.server.url}/api/v1/messages`, {
      method: "POST",
      headers: basic(fields.email, fields.key),
      body: new URLSearchParams({ type: "stream", to: "bot posts", topic: "deploys", content: "Deployed version 42." }),
    });
    const sentBody = await sent.json();
    expect(sent.status).toBe(200);
    expect(sentBody.result).toBe("success");
    const stored = ok(await org.admin.api.get(`/messages/${sentBody.id}`)).message;
    expect(stored).toMatchObject({ sender_email: "deploy-bot@localhost", subject: "deploys", content: "<p>Deployed version 42.</p>" });
    const bot = ok(await org.admin.api.get(`/users/${stored.sender_id}`)).user;
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: org.admin.id, full_name: "Deploy Bot" });

    // Regenerating: a new key shows, the old one is refused, the new one works.
    await credentials.getByRole("button", { name: "Regenerate API key" }).click();
    await page.waitForFunction((old) => (document.querySelector("#bot-api-key") as HTMLInputElement | null)?.value !== old, fields.key);
    const newKey = await credentials.getByLabel("API key").inputValue();
    expect(newKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expectError(await new ApiClient(org.server.url, fields.email, fields.key).get("/users/me"), "INVALID_API_KEY", 401);
    expect(ok(await new ApiClient(org.server.url, fields.email, newKey).get("/users/me")).user_id).toBe(bot.user_id);
    await credentials.getByRole("button", { name: "Done" }).click();
    await credentials.waitFor({ state: "detached" });
    await row(page, "Deploy Bot").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("creates incoming and outgoing webhook bots; the outgoing one shows its endpoint and token", async () => {
    const { context, page, errors } = await openBots();
    const incoming = await createBot(page, { type: "Incoming webhook", name: "Alerts Bot", username: "alerts" });
    await incoming.getByRole("button", { name: "Done" }).click();
    const outgoing = await createBot(page, { type: "Outgoing webhook", name: "Echo Bot", username: "echo", endpoint: "https://hooks.example.com/echo", format: "Slack-compatible" });
    expect(await outgoing.getByLabel("Endpoint URL").inputValue()).toBe("https://hooks.example.com/echo");
    const token = await outgoing.getByLabel("Outgoing token").inputValue();
    await screenshots(page, "admin-bots-outgoing");
    await outgoing.getByRole("button", { name: "Done" }).click();

    const own = ok(await org.admin.api.get("/bots")).bots as any[];
    expect(own.find((bot) => bot.email === "alerts-bot@localhost")).toMatchObject({ bot_type: 2, services: [], is_active: true });
    expect(own.find((bot) => bot.email === "echo-bot@localhost")).toMatchObject({ bot_type: 3, services: [{ base_url: "https://hooks.example.com/echo", interface: 2, token }] });
    expect(await row(page, "Echo Bot").getByText("Outgoing webhook").count()).toBe(1);
    expect(await row(page, "Alerts Bot").getByText("Incoming webhook").count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a refused creation says why and keeps the form", async () => {
    const { context, page, errors } = await openBots();
    await page.getByRole("button", { name: "Create a bot" }).click();
    const form = page.getByRole("dialog", { name: "Create a bot" });
    await form.getByLabel("Name", { exact: true }).fill("Another Helper");
    await form.getByLabel("Username").fill("helper");
    await form.getByRole("button", { name: "Create bot" }).click();
    await form.getByRole("alert").getByText("Username already in use").waitFor();
    expect(await form.getByLabel("Name", { exact: true }).inputValue()).toBe("Another Helper");
    await form.getByRole("button", { name: "Cancel" }).click();
    // The browser logs the refused request itself; nothing else went wrong.
    expect(errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
    await context.close();
  });

  test("an administrator sees a member's bot's key, deactivates the bot and reactivates it", async () => {
    const { context, page, errors } = await openBots({ dark: true });
    const helper = page.locator(`tr[data-bot-id="${org.bot.id}"]`);
    await helper.getByRole("button", { name: "Credentials of Helper Bot" }).click();
    const credentials = page.getByRole("dialog", { name: "Credentials of Helper Bot" });
    await credentials.getByLabel("API key").waitFor();
    expect(await credentials.getByLabel("API key").inputValue()).toBe(org.bot.apiKey);
    await screenshots(page, "admin-bots-credentials-dark");
    await credentials.getByRole("button", { name: "Done" }).click();

    await helper.getByRole("button", { name: "Deactivate Helper Bot" }).click();
    await page.getByText("Helper Bot was deactivated.").waitFor();
    expect(ok(await org.admin.api.get(`/users/${org.bot.id}`)).user.is_active).toBe(false);
    expectError(await org.bot.api.get("/users/me"), "USER_DEACTIVATED", 401);
    // Deactivated bots are listed under their own filter.
    await helper.waitFor({ state: "detached" });
    await page.getByLabel("Show").selectOption({ label: "Deactivated" });
    await helper.getByText("deactivated").waitFor();
    await screenshots(page, "admin-bots-deactivated-dark");
    await helper.getByRole("button", { name: "Reactivate Helper Bot" }).click();
    await page.getByText("Helper Bot was reactivated.").waitFor();
    expect(ok(await org.bot.api.get("/users/me")).user_id).toBe(org.bot.id);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a member forging the console's requests with their session is refused by the server", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, org.server.url, org.member2.email, org.member2.password);
    const csrf = (await context.cookies()).find((cookie) => cookie.name === "parley_csrf")!.value;
    const adminBot = (ok(await org.admin.api.get("/bots")).bots as any[])[0];
    const headers = { "x-csrf-token": csrf };
    for (const [method, path] of [
      ["POST", `/api/v1/bots/${adminBot.user_id}/api_key/regenerate`],
      ["DELETE", `/api/v1/bots/${adminBot.user_id}`],
    ] as const) {
      const response = await page.request.fetch(`${org.server.url}${path}`, { method, headers });
      expect(response.status()).toBe(400);
      expect(await response.json()).toMatchObject({ result: "error", msg: "No such bot" });
    }
    const zuliprc = await page.request.get(`${org.server.url}/api/v1/bots/${adminBot.user_id}/zuliprc`);
    expect(zuliprc.status()).toBe(400);
    expect(ok(await org.admin.api.get("/bots")).bots[0]).toMatchObject({ api_key: adminBot.api_key, is_active: true });
    await context.close();
  });
});
