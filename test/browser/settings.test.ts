import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { png } from "../helpers/images";
import { ok, seedOrg, type Org } from "../helpers/seed";

/**
 * Everyone's own settings page, clicked through as a member would: name, picture, status, theme,
 * notifications, password, API key and zuliprc, sessions, saved snippets. What the page shows
 * is checked, and what the server then holds, through the API.
 */

let org: Org;
let browser: Browser;
/** The member's signed-in page, carried through the steps below in order. */
let context: BrowserContext;
let page: Page;
let errors: string[];
let password: string;
let apiKey: string;

const basic = (email: string, key: string) => ({ authorization: `Basic ${Buffer.from(`${email}:${key}`).toString("base64")}` });

/** The member's API, with whatever key they hold now. */
const memberApi = () => org.anon.as(org.member.email, apiKey);

async function settingsOf(): Promise<Record<string, unknown>> {
  return ok(await memberApi().post("/register", { fetch_event_types: ["user_settings"], client_capabilities: { user_settings_object: true } })).user_settings;
}

/** Opens a section from the sidebar, as a person would. */
async function open(section: string, heading = section) {
  await page.locator(".sidebar").getByRole("link", { name: section, exact: true }).click();
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
}

const toast = (text: string) => page.locator(".toast", { hasText: text }).first().waitFor();

/** Waits until the setting's control is enabled again: its save has been answered. */
const saved = (name: string) => page.waitForFunction((id) => !(document.getElementById(id) as HTMLInputElement | null)?.disabled, `setting-${name}`);

beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  browser = await launchBrowser();
  password = org.member.password;
  apiKey = org.member.apiKey;
  context = await newContext(browser);
  page = await context.newPage();
  errors = collectPageErrors(page);
  page.on("dialog", (dialog) => dialog.accept());
});
afterAll(async () => {
  await browser?.close();
  await org?.server.stop();
});

describeInBrowser("a member's own settings", () => {
  test("signing in lands in the chat; the settings open on the Profile; the name changes and the sidebar follows", async () => {
    await signIn(page, org.server.url, org.member.email, password);
    expect(new URL(page.url()).pathname).toBe("/");
    await page.goto(`${org.server.url}/settings/`);
    await page.getByRole("heading", { name: "Profile", level: 1 }).waitFor();
    // The way back to the chat heads the sidebar.
    const first = page.locator(".sidebar .nav a").first();
    expect(await first.textContent()).toBe("Chat");
    expect(await first.getAttribute("href")).toBe("/");
    // Members have no way into the console from here.
    expect(await page.getByRole("link", { name: "Administration" }).count()).toBe(0);
    expect(await page.getByLabel("E-mail address").inputValue()).toBe(org.member.email);
    await page.getByLabel("Full name").fill("Mel Renamed");
    await page.getByRole("button", { name: "Save name" }).click();
    await toast("Your name was changed.");
    expect(ok(await memberApi().get("/users/me")).full_name).toBe("Mel Renamed");
    await page.locator(".me-text", { hasText: "Mel Renamed" }).waitFor();
  });

  test("a picture that is not an image is refused with the server's reason; a PNG is previewed, then used", async () => {
    const chooseFile = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: /Upload a picture|Change picture/ }).click()]);
      await chooser.setFiles(file);
    };
    await chooseFile({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not really a picture") });
    await page.getByRole("button", { name: "Use this picture" }).click();
    await page.getByRole("alert").filter({ hasText: "Invalid image format" }).waitFor();
    expect(ok(await memberApi().get("/users/me")).avatar_url).toContain("gravatar.com");

    await chooseFile({ name: "me.png", mimeType: "image/png", buffer: Buffer.from(png()) });
    await page.getByAltText("The chosen picture").waitFor();
    await page.getByRole("button", { name: "Use this picture" }).click();
    await toast("Your picture was changed.");
    const { avatar_url } = ok(await memberApi().get("/users/me"));
    expect(avatar_url).toMatch(/^\/user_avatars\/1\/[0-9a-f]{64}$/);
    // Shown on the page and in the sidebar, loaded from the server.
    await page.locator(`.card img.avatar-lg[src="${avatar_url}"]`).waitFor();
    await page.locator(`.sidebar img.avatar[src="${avatar_url}"]`).waitFor();
    expect(await page.locator(".card img.avatar-lg").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await page.getByRole("button", { name: "Remove picture" }).waitFor();
    await screenshots(page, "settings-profile");
  });

  test("a status is set with an emoji, refused with the server's reason for an unknown one, marked away, and cleared", async () => {
    const statusOf = async () => ok(await memberApi().get(`/users/${org.member.id}/status`)).status;
    await open("Status");
    const now = page.locator(".card-head .me-text");
    await now.getByText("No status set").waitFor();
    await page.getByLabel("Status text").fill("On a beach");
    await page.getByLabel("Emoji", { exact: true }).fill("no_such_emoji_here");
    await page.getByRole("button", { name: "Save status" }).click();
    await page.getByRole("alert").filter({ hasText: "Emoji 'no_such_emoji_here' does not exist" }).waitFor();
    expect(await statusOf()).toEqual({});
    // The name as typed in a message, between colons, is taken too.
    await page.getByLabel("Emoji", { exact: true }).fill(":palm_tree:");
    await page.getByRole("button", { name: "Save status" }).click();
    await toast("Your status was saved.");
    expect(await statusOf()).toEqual({ status_text: "On a beach", emoji_name: "palm_tree", emoji_code: "1f334", reaction_type: "unicode_emoji" });
    // Shown beside the name: the emoji itself, then the text.
    const glyph = now.getByRole("img", { name: "palm_tree" });
    await glyph.waitFor();
    expect(await glyph.textContent()).toBe("\u{1f334}");
    await now.getByText("On a beach").waitFor();
    expect(await page.getByLabel("Emoji", { exact: true }).inputValue()).toBe("palm_tree");

    // Over 60 characters is said before anything is sent.
    await page.getByLabel("Status text").fill("x".repeat(61));
    await page.getByText("A status may have at most 60 characters.").waitFor();
    expect(await page.getByRole("button", { name: "Save status" }).isDisabled()).toBe(true);
    await page.getByLabel("Status text").fill("On a beach");

    // Away is Privacy's "Show when I am online", turned off: both say so.
    await page.getByLabel("Appear away").check();
    await toast("You appear away.");
    expect(await statusOf()).toMatchObject({ away: true, status_text: "On a beach" });
    expect((await settingsOf()).presence_enabled).toBe(false);
    await screenshots(page, "settings-status");
    await open("Privacy");
    expect(await page.locator("#setting-presence_enabled").isChecked()).toBe(false);
    await open("Status");
    expect(await page.getByLabel("Appear away").isChecked()).toBe(true);
    await page.getByLabel("Appear away").uncheck();
    await toast("You no longer appear away.");
    expect((await settingsOf()).presence_enabled).toBe(true);

    await page.getByRole("button", { name: "Clear status" }).click();
    await toast("Your status was cleared.");
    await now.getByText("No status set").waitFor();
    expect(await statusOf()).toEqual({});
    expect(await page.getByLabel("Status text").inputValue()).toBe("");
    expect(await page.getByLabel("Emoji", { exact: true }).inputValue()).toBe("");
  });

  test("the theme changes the page at once, and is kept", async () => {
    await open("Display");
    await page.getByLabel("Theme").selectOption({ label: "Dark" });
    await page.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
    await saved("color_scheme");
    expect((await settingsOf()).color_scheme).toBe(2);
    await page.getByLabel("Time format").selectOption({ label: "24-hour (13:00)" });
    await saved("twenty_four_hour_time");
    expect((await settingsOf()).twenty_four_hour_time).toBe(true);
    await screenshots(page, "settings-display-dark");
    // A reload starts dark, from the saved setting.
    await page.reload();
    await page.getByRole("heading", { name: "Display", level: 1 }).waitFor();
    await page.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
    await page.getByLabel("Theme").selectOption({ label: "Light" });
    await page.locator('html[data-theme="light"]').waitFor({ state: "attached" });
    await screenshots(page, "settings-display");
    await page.getByLabel("Theme").selectOption({ label: "Automatic (as the device)" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === undefined);
    await saved("color_scheme");
    expect((await settingsOf()).color_scheme).toBe(1);
  });

  test("notification settings save as they are switched", async () => {
    await open("Notifications");
    const sound = page.locator("#setting-enable_sounds");
    expect(await sound.isChecked()).toBe(true);
    await sound.uncheck();
    await saved("enable_sounds");
    expect((await settingsOf()).enable_sounds).toBe(false);
    await page.getByLabel("Wait before e-mailing").selectOption({ label: "10 minutes" });
    await saved("email_notifications_batching_period_seconds");
    expect((await settingsOf()).email_notifications_batching_period_seconds).toBe(600);
    await screenshots(page, "settings-notifications");
  });

  test("the password changes after the current one is given; the new one signs in", async () => {
    await open("Password");
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password", { exact: true }).fill("a new password for Mel");
    await page.getByLabel("New password again").fill("a different one");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").filter({ hasText: "The two new passwords differ." }).waitFor();
    await page.getByLabel("New password again").fill("a new password for Mel");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong password!" }).waitFor();
    await page.getByLabel("Current password").fill(password);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Your password was changed").waitFor();
    await screenshots(page, "settings-password");
    expect((await org.anon.post("/fetch_api_key", { username: org.member.email, password })).status).toBe(401);
    password = "a new password for Mel";
    // This browser stays signed in; signing in afresh takes the new password.
    ok(await memberApi().get("/users/me"));
    const fresh = await newContext(browser);
    const other = await fresh.newPage();
    await signIn(other, org.server.url, org.member.email, password);
    expect(new URL(other.url()).pathname).toBe("/");
    await other.goto(`${org.server.url}/settings/`);
    await other.getByRole("button", { name: "Sign out" }).click();
    await other.waitForURL((url) => url.pathname === "/login");
    await fresh.close();
  });

  test("the API key shows after the password, downloads as a zuliprc that works, and can be replaced", async () => {
    await open("API key");
    await page.getByLabel("Your password").fill("wrong password");
    await page.getByRole("button", { name: "Show my API key" }).click();
    await page.getByRole("alert").filter({ hasText: "incorrect" }).waitFor();
    await page.getByLabel("Your password").fill(password);
    await page.getByRole("button", { name: "Show my API key" }).click();
    const shown = page.getByRole("textbox", { name: "API key" });
    await shown.waitFor();
    expect(await shown.inputValue()).toBe(apiKey);
    await screenshots(page, "settings-api-key");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download zuliprc" }).click()]);
    expect(download.suggestedFilename()).toBe("zuliprc");
    const zuliprc = readFileSync((await download.path())!, "utf8");
    const fields = Object.fromEntries(zuliprc.split("\n").filter((line) => line.includes("=")).map((line) => line.split("=", 2) as [string, string]));
    expect(zuliprc.startsWith("[api]\n")).toBe(true);
    expect(fields).toEqual({ email: org.member.email, key: apiKey, site: org.server.url });
    const response = await fetch(`${fields.site}/api/v1/users/me`, { headers: basic(fields.email!, fields.key!) });
    expect((await response.json()).user_id).toBe(org.member.id);

    await page.getByRole("button", { name: "Generate a new key" }).click();
    const dialog = page.getByRole("dialog", { name: "Generate a new API key?" });
    await dialog.getByRole("button", { name: "Generate a new key" }).click();
    await toast("You have a new API key");
    const renewed = await shown.inputValue();
    expect(renewed).not.toBe(apiKey);
    expect((await fetch(`${fields.site}/api/v1/users/me`, { headers: basic(fields.email!, fields.key!) })).status).toBe(401);
    apiKey = renewed;
    ok(await memberApi().get("/users/me"));
  });

  test("another browser's session is listed and signed out from here", async () => {
    const elsewhere = await newContext(browser, { phone: true });
    const phone = await elsewhere.newPage();
    await signIn(phone, org.server.url, org.member.email, password);
    await open("Sessions");
    const rows = page.locator("tr[data-session-id]");
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    const current = rows.filter({ hasText: "this browser" });
    expect(await current.count()).toBe(1);
    await screenshots(page, "settings-sessions");
    const other = rows.filter({ hasNotText: "this browser" });
    await other.getByRole("button", { name: "Sign out" }).click();
    await toast("was signed out");
    await rows.nth(1).waitFor({ state: "detached" });
    expect(await rows.count()).toBe(1);
    expect(ok(await memberApi().get("/users/me/sessions")).sessions).toHaveLength(1);
    // The phone finds itself signed out.
    await phone.goto(`${org.server.url}/settings/`);
    expect(new URL(phone.url()).pathname).toBe("/login");
    await elsewhere.close();
  });

  test("a saved snippet is added, edited and listed", async () => {
    await open("Saved snippets");
    await page.getByText("No saved snippets yet.").waitFor();
    await page.getByRole("button", { name: "New snippet" }).click();
    const dialog = page.getByRole("dialog", { name: "New snippet" });
    await dialog.getByLabel("Title").fill("Standup");
    await dialog.getByLabel("Text").fill("**Yesterday:**\n**Today:**\n**Blockers:** none");
    await dialog.getByRole("button", { name: "Add snippet" }).click();
    await toast("The snippet was added.");
    const [snippet] = ok(await memberApi().get("/saved_snippets")).saved_snippets;
    expect(snippet).toMatchObject({ title: "Standup", content: "**Yesterday:**\n**Today:**\n**Blockers:** none" });
    const item = page.locator(`li[data-snippet-id="${snippet.id}"]`);
    await item.getByText("Standup").waitFor();
    await item.getByRole("button", { name: "Edit" }).click();
    const editor = page.getByRole("dialog", { name: "Edit snippet" });
    await editor.getByLabel("Title").fill("Daily standup");
    await editor.getByRole("button", { name: "Save" }).click();
    await item.getByText("Daily standup").waitFor();
    expect(ok(await memberApi().get("/saved_snippets")).saved_snippets[0].title).toBe("Daily standup");
    await screenshots(page, "settings-snippets");
    // Chromium logs the refusals the steps above provoked (a fake picture, wrong passwords); nothing else.
    expect(errors.filter((error) => !/^Failed to load resource: the server responded with a status of 40[01]/.test(error))).toEqual([]);
  });
});

describeInBrowser("who reaches which area", () => {
  test("a member visiting /admin/ is sent to their settings, which lead back to the chat", async () => {
    await page.goto(`${org.server.url}/admin/people`);
    expect(new URL(page.url()).pathname).toBe("/settings/");
    await page.getByRole("heading", { name: "Profile", level: 1 }).waitFor();
    await page.locator(".sidebar").getByRole("link", { name: "Chat" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });

  test("an administrator's settings link back to the console; in a dark browser the page is dark", async () => {
    const dark = await newContext(browser, { dark: true });
    const adminPage = await dark.newPage();
    const adminErrors = collectPageErrors(adminPage);
    await signIn(adminPage, org.server.url, org.admin.email, org.admin.password);
    expect(new URL(adminPage.url()).pathname).toBe("/");
    await adminPage.goto(`${org.server.url}/admin/`);
    await adminPage.getByRole("link", { name: "My account" }).click();
    await adminPage.waitForURL((url) => url.pathname === "/settings/");
    await adminPage.getByRole("heading", { name: "Profile", level: 1 }).waitFor();
    await adminPage.locator(".sidebar").getByRole("link", { name: "Notifications" }).click();
    await adminPage.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
    const background = await adminPage.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(21, 23, 28)");
    await screenshots(adminPage, "settings-notifications-dark");
    await adminPage.locator(".sidebar").getByRole("link", { name: "Administration" }).click();
    await adminPage.waitForURL((url) => url.pathname === "/admin/");
    await adminPage.getByRole("heading", { name: "People" }).waitFor();
    // Both areas lead back to the chat.
    await adminPage.locator(".sidebar").getByRole("link", { name: "Chat" }).click();
    await adminPage.waitForURL((url) => url.pathname === "/");
    expect(adminErrors).toEqual([]);
    await dark.close();
  });
});
