import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn } from "../helpers/browser";
import { subscribe } from "../helpers/channels";
import { ok, seedOrg, type Org } from "../helpers/seed";

/** The admin console's Channels section, clicked through as an administrator would. */

let org: Org;
let browser: Browser;
let administratorsGroup: number;

const ALL = { include_all: true, exclude_archived: false, include_default: true };
const channelNamed = async (name: string) => (ok(await org.admin.api.get("/streams", ALL)).streams as any[]).find((channel) => channel.name === name);

beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  browser = await launchBrowser();
  await subscribe(org.admin, ["lobby"], { subscriptions: [{ name: "lobby", description: "Say hello" }] });
  // A private channel the administrator is not in, and an archived one: both are listed.
  await subscribe(org.member2, ["secret plans"], { invite_only: true });
  await subscribe(org.admin, ["old news"]);
  ok(await org.admin.api.delete(`/streams/${(await channelNamed("old news")).stream_id}`));
  administratorsGroup = (ok(await org.admin.api.get("/user_groups")).user_groups as any[]).find((group) => group.name === "role:administrators").id;
});
afterAll(async () => {
  await browser?.close();
  await org?.server.stop();
});

async function openChannels(options: { dark?: boolean } = {}) {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  page.on("dialog", (dialog) => dialog.accept());
  await signIn(page, org.server.url, org.admin.email, org.admin.password);
  await page.goto(`${org.server.url}/admin/channels`);
  await page.getByRole("heading", { name: "Channels" }).waitFor();
  await page.getByRole("link", { name: "lobby", exact: true }).waitFor();
  return { context, page, errors };
}

const row = (page: Page, name: string) => page.locator("tr", { has: page.getByRole("link", { name, exact: true }) });

async function createChannel(page: Page, fields: { name: string; description?: string; privacy?: string; isDefault?: boolean }) {
  await page.getByRole("button", { name: "Create a channel" }).click();
  const dialog = page.getByRole("dialog", { name: "Create a channel" });
  await dialog.getByLabel("Channel name").fill(fields.name);
  if (fields.description) await dialog.getByLabel("Description").fill(fields.description);
  if (fields.privacy) await dialog.getByLabel("Who can access it").selectOption({ label: fields.privacy });
  if (fields.isDefault) await dialog.getByLabel("Default channel").check();
  return dialog;
}

describeInBrowser("the Channels section", () => {
  test("lists every channel, private ones the administrator is not in and archived ones too", async () => {
    const { context, page, errors } = await openChannels();
    expect(await row(page, "secret plans").getByText("Private").count()).toBe(1);
    expect(await row(page, "lobby").textContent()).toContain("Say hello");
    expect(await row(page, "old news").count()).toBe(0);
    await screenshots(page, "admin-channels");
    await page.getByLabel("Show").selectOption({ label: "Archived" });
    await row(page, "old news").getByText("archived").waitFor();
    expect(await row(page, "lobby").count()).toBe(0);
    await page.getByLabel("Show").selectOption({ label: "All channels" });
    await page.getByLabel("Search channels").fill("hello");
    await row(page, "lobby").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("creates a public default channel and a private one with protected history", async () => {
    const { context, page, errors } = await openChannels();
    const dialog = await createChannel(page, { name: "design", description: "Mockups and **reviews**", isDefault: true });
    await screenshots(page, "admin-channels-create");
    await dialog.getByRole("button", { name: "Create channel" }).click();
    await row(page, "design").waitFor();
    expect(await row(page, "design").getByText("default", { exact: true }).count()).toBe(1);
    expect(await channelNamed("design")).toMatchObject({ invite_only: false, history_public_to_subscribers: true, is_default: true, description: "Mockups and **reviews**" });

    const second = await createChannel(page, { name: "leadership", privacy: "Private, protected history" });
    // A private channel cannot be a default one.
    expect(await second.getByLabel("Default channel").isDisabled()).toBe(true);
    await second.getByRole("button", { name: "Create channel" }).click();
    await row(page, "leadership").waitFor();
    expect(await channelNamed("leadership")).toMatchObject({ invite_only: true, history_public_to_subscribers: false, is_default: false });

    // A name in use is refused in the dialog, without joining that channel.
    const third = await createChannel(page, { name: "Secret Plans" });
    await third.getByRole("button", { name: "Create channel" }).click();
    await third.getByRole("alert").getByText("already exists").waitFor();
    await third.getByRole("button", { name: "Cancel" }).click();
    expect(ok(await org.admin.api.get("/users/me/subscriptions")).subscriptions.map((sub: any) => sub.name)).not.toContain("secret plans");
    expect(errors).toEqual([]);
    await context.close();
  });

  test("edits a channel's name, description, privacy and who can post", async () => {
    await subscribe(org.admin, ["drafts"]);
    const { context, page, errors } = await openChannels();
    const id = (await channelNamed("drafts")).stream_id;
    await row(page, "drafts").getByRole("link", { name: "Edit drafts" }).click();
    await page.getByRole("heading", { name: "#drafts" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/channels/${id}`);
    await page.getByLabel("Channel name").fill("drafts-2026");
    await page.getByLabel("Description").fill("Work in progress");
    await page.getByLabel("Who can access it").selectOption({ label: "Private, shared history" });
    await page.getByLabel("Who can post").selectOption({ label: "Administrators" });
    await screenshots(page, "admin-channels-edit");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: "#drafts-2026" }).waitFor();
    const saved = await channelNamed("drafts-2026");
    expect(saved).toMatchObject({ stream_id: id, description: "Work in progress", invite_only: true, history_public_to_subscribers: true, can_send_message_group: administratorsGroup });
    // The form shows what the server now holds.
    expect(await page.getByLabel("Who can post").inputValue()).toBe(String(administratorsGroup));

    // Specific people: the picker's chips; saved as an anonymous group.
    await page.getByLabel("Who can remove subscribers").selectOption({ label: "Specific people or groups…" });
    await page.getByLabel("Add to Who can remove subscribers").selectOption({ label: "Max Member" });
    await Promise.all([page.waitForResponse((response) => response.request().method() === "PATCH"), page.getByRole("button", { name: "Save changes" }).click()]);
    await page.getByRole("button", { name: "Remove Max Member" }).waitFor();
    expect((await channelNamed("drafts-2026")).can_remove_subscribers_group).toEqual({ direct_members: [org.member2.id], direct_subgroups: [expect.any(Number)] });
    await screenshots(page, "admin-channels-edit-specific");

    await page.getByRole("link", { name: "← All channels" }).click();
    await row(page, "drafts-2026").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a refused edit says why and keeps what was typed", async () => {
    const { context, page, errors } = await openChannels();
    await row(page, "design").getByRole("link", { name: "Edit design" }).click();
    await page.getByRole("heading", { name: "#design" }).waitFor();
    await page.getByLabel("Channel name").fill("lobby");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("alert").getByText("Channel 'lobby' already exists").waitFor();
    expect(await page.getByLabel("Channel name").inputValue()).toBe("lobby");
    expect(await channelNamed("design")).toBeDefined();
    expect(errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
    await context.close();
  });

  test("makes a channel default, archives it and unarchives it (in dark mode)", async () => {
    const { context, page, errors } = await openChannels({ dark: true });
    const lobby = row(page, "lobby");
    await lobby.getByRole("button", { name: "Make lobby a default" }).click();
    await lobby.getByText("default", { exact: true }).waitFor();
    expect((await channelNamed("lobby")).is_default).toBe(true);
    await screenshots(page, "admin-channels-dark");

    await lobby.getByRole("button", { name: "Archive lobby" }).click();
    await lobby.waitFor({ state: "detached" });
    expect(await channelNamed("lobby")).toMatchObject({ is_archived: true, is_default: false });
    await page.getByLabel("Show").selectOption({ label: "Archived" });
    await lobby.getByRole("button", { name: "Unarchive lobby" }).click();
    await lobby.waitFor({ state: "detached" });
    expect((await channelNamed("lobby")).is_archived).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("a member forging the console's channel requests with their session is refused by the server", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, org.server.url, org.member.email, org.member.password);
    const csrf = (await context.cookies()).find((cookie) => cookie.name === "parley_csrf")!.value;
    const headers = { "x-csrf-token": csrf, "content-type": "application/x-www-form-urlencoded" };
    const lobby = await channelNamed("lobby");
    const secret = await channelNamed("secret plans");
    const attempts = [
      ["PATCH", `/streams/${lobby.stream_id}`, "new_name=hijacked&description=mine", "BAD_REQUEST", "You do not have permission to administer this channel."],
      ["PATCH", `/streams/${lobby.stream_id}`, `can_send_message_group=${encodeURIComponent(JSON.stringify({ new: administratorsGroup }))}`, "BAD_REQUEST", "You do not have permission to administer this channel."],
      ["PATCH", `/streams/${secret.stream_id}`, "is_private=false", "BAD_REQUEST", "Invalid channel ID"],
      ["DELETE", `/streams/${lobby.stream_id}`, "", "BAD_REQUEST", "You do not have permission to administer this channel."],
      ["POST", "/default_streams", `stream_id=${lobby.stream_id}`, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"],
      ["DELETE", "/default_streams", `stream_id=${lobby.stream_id}`, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"],
    ] as const;
    for (const [method, path, body, code, message] of attempts) {
      const response = await page.request.fetch(`${org.server.url}/api/v1${path}`, { method, headers, data: body });
      expect(response.status()).toBe(400);
      expect(await response.json()).toEqual({ result: "error", code, msg: message });
    }
    // Without the CSRF header the session is not enough at all.
    const noCsrf = await page.request.fetch(`${org.server.url}/api/v1/streams/${lobby.stream_id}`, { method: "PATCH", headers: { "content-type": "application/x-www-form-urlencoded" }, data: "new_name=hijacked" });
    expect(noCsrf.status()).toBe(403);
    expect(await channelNamed("lobby")).toMatchObject({ name: "lobby", description: lobby.description, can_send_message_group: lobby.can_send_message_group, is_archived: false, is_default: lobby.is_default });
    expect((await channelNamed("secret plans")).invite_only).toBe(true);
    await context.close();
  });
});
