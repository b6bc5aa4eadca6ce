import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn, eventually } from "../helpers/browser";
import { ok, seedOrg, type Org, type Person } from "../helpers/seed";

/**
 * The "done means", in real Chromium: two people in two browser contexts chat in a
 * channel and a topic, see each other live with unread counts, mention, react, edit, write
 * directly, search; then the server restarts mid-conversation and both pages recover with
 * every message exactly once. Each step checks what the pages show and, where it matters,
 * what the server holds.
 */

let org: Org;
let browser: Browser;
interface Side {
  person: Person;
  context: BrowserContext;
  page: Page;
  errors: string[];
  /** Every API answer that was not a success: method, path, status, code. */
  refusals: string[];
}
let mel: Side;
let max: Side;
let lobbyId: number;
let randomId: number;

const list = (page: Page) => page.locator('[data-testid="message-list"]');
const row = (page: Page, text: string) => list(page).locator("article[data-message-id]", { hasText: text });
const composeBox = (page: Page) => page.getByLabel("Message", { exact: true });
const channelLink = (page: Page, id: number) => page.locator(`.chat-sidebar a[data-channel-id="${id}"]`);

/** The ids of the rows shown, in order. */
const shownIds = (page: Page) =>
  page.$$eval('[data-testid="message-list"] article[data-message-id]', (rows) => rows.map((element) => Number((element as HTMLElement).dataset.messageId)));

/** What the server says is in a narrow, newest last. */
async function serverIds(person: Person, narrow: unknown[]): Promise<number[]> {
  const body = ok(await person.api.get("/messages", { anchor: "newest", num_before: 200, num_after: 0, narrow: JSON.stringify(narrow) }));
  return body.messages.map((message: { id: number }) => message.id);
}

async function send(page: Page, text: string) {
  await composeBox(page).click();
  await composeBox(page).fill(text);
  await composeBox(page).press("Enter");
}

async function open(person: Person, dark = false): Promise<Side> {
  const context = await newContext(browser, { dark });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const refusals: string[] = [];
  page.on("response", async (response) => {
    if (response.status() < 400 || !response.url().includes("/api/v1/")) return;
    const body = (await response.json().catch(() => ({}))) as { code?: string };
    refusals.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()} ${body.code}`);
  });
  await signIn(page, org.server.url, person.email, person.password);
  return { person, context, page, errors, refusals };
}

beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  browser = await launchBrowser();
  const created = ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "lobby" }, { name: "random" }]), principals: JSON.stringify([org.member.id, org.member2.id]) }));
  expect(created.result).toBe("success");
  const streams = ok(await org.member.api.get("/users/me/subscriptions")).subscriptions as Array<{ name: string; stream_id: number }>;
  lobbyId = streams.find((sub) => sub.name === "lobby")!.stream_id;
  randomId = streams.find((sub) => sub.name === "random")!.stream_id;
  if (!browser) return;
  mel = await open(org.member);
  max = await open(org.member2);
});
afterAll(async () => {
  await browser?.close();
  await org?.server.dispose();
});

describeInBrowser("two people chatting in the web client", () => {
  test("signing in lands in the chat, on the combined feed", async () => {
    for (const { page } of [mel, max]) {
      expect(new URL(page.url()).pathname).toBe("/");
      await page.getByRole("heading", { name: "Combined feed", level: 1 }).waitFor();
      await channelLink(page, lobbyId).waitFor();
    }
  });

  test("Mel writes in a new topic; Max, elsewhere, sees it live with an unread count", async () => {
    // Max reads another channel, so the new message stays unread for him.
    await channelLink(max.page, randomId).click();
    await max.page.getByRole("heading", { name: "#random", level: 1 }).waitFor();

    await channelLink(mel.page, lobbyId).click();
    await mel.page.getByRole("heading", { name: "#lobby", level: 1 }).waitFor();
    await mel.page.getByLabel("Topic", { exact: true }).fill("launch plans");
    const sentAt = Date.now();
    await send(mel.page, "Hello from Mel: the launch is on Friday");

    // Max's sidebar counts it for the channel, and the tab title counts it too.
    const count = channelLink(max.page, lobbyId).locator(".unread-count");
    await count.waitFor({ timeout: 5000 });
    const seenAfter = Date.now() - sentAt;
    expect(await count.textContent()).toBe("1");
    expect(await max.page.title()).toStartWith("(1) ");
    console.log(`Max saw Mel's message ${seenAfter} ms after she pressed Enter`);

    // The sender sees it exactly once, confirmed (no echo left behind).
    await row(mel.page, "the launch is on Friday").waitFor();
    expect(await row(mel.page, "the launch is on Friday").count()).toBe(1);
    await expect(mel.page.locator("article[data-local-id]").count()).resolves.toBe(0);
  });

  test("Max opens the topic (reading it clears the count) and replies mentioning Mel", async () => {
    await channelLink(max.page, lobbyId).click();
    await max.page.locator('.chat-sidebar a[data-topic="launch plans"]').click();
    await max.page.getByRole("heading", { name: "#lobby › launch plans", level: 1 }).waitFor();
    await row(max.page, "the launch is on Friday").waitFor();
    // Seen, so read: the count goes, and the server agrees.
    await channelLink(max.page, lobbyId).locator(".unread-count").waitFor({ state: "detached" });
    const flagsOnServer = async () => ok(await org.member2.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: lobbyId }]) })).messages[0].flags.includes("read");
    await eventually(flagsOnServer, true);

    // The mention comes from the autocomplete, as a person would pick it.
    const box = composeBox(max.page);
    await box.click();
    await box.pressSequentially("Sounds good @Mel");
    await max.page.getByRole("option", { name: /Mel Member/ }).first().waitFor();
    await box.press("Enter");
    expect(await box.inputValue()).toBe("Sounds good @**Mel Member** ");
    await box.pressSequentially("see you there");
    await box.press("Enter");
    await row(max.page, "see you there").waitFor();
  });

  test("Mel sees the reply live, marked as mentioning her, and the Mentions view has it", async () => {
    const reply = row(mel.page, "see you there");
    await reply.waitFor({ timeout: 5000 });
    await expect(reply.locator(".user-mention").first().textContent()).resolves.toContain("Mel Member");
    await mel.page.locator(".chat-sidebar a", { hasText: "Mentions" }).click();
    await mel.page.getByRole("heading", { name: "Mentions", level: 1 }).waitFor();
    await row(mel.page, "see you there").waitFor();
    await mel.page.goBack();
    await mel.page.getByRole("heading", { name: "#lobby", level: 1 }).waitFor();
  });

  test("Mel reacts; Max sees the reaction live", async () => {
    const reply = row(mel.page, "see you there");
    await reply.hover();
    await reply.getByRole("button", { name: "Add a reaction" }).first().click();
    await mel.page.getByLabel("Search emoji").fill("tada");
    await mel.page.getByLabel("Search emoji").press("Enter");
    await reply.locator(".reaction[aria-pressed=true]").waitFor();

    const seen = row(max.page, "see you there").locator(".reaction", { hasText: "1" });
    await seen.waitFor({ timeout: 5000 });
    expect(await seen.getAttribute("aria-pressed")).toBe("false");
    const message = ok(await org.member.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: lobbyId }]) })).messages[0];
    expect(message.reactions.map((reaction: { emoji_name: string; user_id: number }) => [reaction.emoji_name, reaction.user_id])).toEqual([["tada", org.member.id]]);
  });

  test("Max edits his reply; Mel sees the new text, marked as edited", async () => {
    const reply = row(max.page, "see you there");
    await reply.hover();
    await reply.getByRole("button", { name: "Message actions" }).click();
    await max.page.getByRole("menuitem", { name: "Edit" }).click();
    const editor = max.page.getByLabel("Edit message");
    await editor.waitFor();
    await eventually(async () => (await editor.inputValue()).includes("see you there"), true);
    await editor.fill("Sounds good @**Mel Member** see you there at 10");
    await editor.press("Enter");
    await row(max.page, "see you there at 10").waitFor();

    const edited = row(mel.page, "see you there at 10");
    await edited.waitFor({ timeout: 5000 });
    await edited.locator(".msg-edited").waitFor();
  });

  test("a direct message round trip", async () => {
    await mel.page.getByRole("button", { name: "New direct message" }).click();
    const people = mel.page.getByLabel("People", { exact: true });
    await people.pressSequentially("Max");
    await mel.page.getByRole("option", { name: /Max Member/ }).first().click();
    await send(mel.page, "Psst, a private word about Friday");

    const dmLink = max.page.locator(`.chat-sidebar a[data-dm="${org.member.id}"]`);
    await dmLink.locator(".unread-count").waitFor({ timeout: 5000 });
    await dmLink.click();
    await row(max.page, "a private word about Friday").waitFor();
    await send(max.page, "Got it, mum's the word");

    await mel.page.locator(`.chat-sidebar a[data-dm="${org.member2.id}"]`).click();
    await row(mel.page, "mum's the word").waitFor({ timeout: 5000 });
    expect(await row(mel.page, "a private word about Friday").count()).toBe(1);
  });

  test("search finds the message, as a shareable URL", async () => {
    const search = max.page.getByLabel("Search messages");
    await search.fill("Friday");
    await search.press("Enter");
    await max.page.getByRole("heading", { name: "Search: Friday", level: 1 }).waitFor();
    await row(max.page, "the launch is on Friday").waitFor();
    expect(max.page.url()).toContain("#narrow/search/Friday");
    await screenshots(max.page, "chat-search");
  });

  test("the server restarts mid-conversation: both recover with nothing lost or doubled", async () => {
    for (const side of [mel, max]) {
      await channelLink(side.page, lobbyId).click();
      await side.page.locator('.chat-sidebar a[data-topic="launch plans"]').click();
      await row(side.page, "the launch is on Friday").waitFor();
    }
    // Killed while both pages are parked in a long-poll.
    await org.server.stop("SIGKILL");
    await send(mel.page, "Written while the server was away");
    const failed = mel.page.locator("article[data-local-id].failed", { hasText: "while the server was away" });
    await failed.waitFor({ timeout: 10_000 });
    await mel.page.locator(".connection-banner").waitFor({ timeout: 10_000 });

    await org.server.startAgainOnSamePort();
    // Someone else writes right after the restart, before the pages are back.
    ok(await org.owner.api.post("/messages", { type: "stream", to: lobbyId, topic: "launch plans", content: "Owner here, after the restart" }));
    for (const side of [mel, max]) {
      await side.page.locator(".connection-banner").waitFor({ state: "detached", timeout: 20_000 });
      await row(side.page, "Owner here, after the restart").waitFor({ timeout: 10_000 });
    }
    // Only the person's click sends the failed one again: then it goes exactly once.
    await failed.getByRole("button", { name: "Retry" }).click();
    await row(mel.page, "Written while the server was away").waitFor();
    await row(max.page, "Written while the server was away").waitFor({ timeout: 5000 });
    await send(max.page, "Back to normal");
    await row(mel.page, "Back to normal").waitFor({ timeout: 5000 });

    const expected = await serverIds(org.member, [
      { operator: "channel", operand: lobbyId },
      { operator: "topic", operand: "launch plans" },
    ]);
    for (const side of [mel, max]) {
      await eventually(() => shownIds(side.page), expected);
      expect(await side.page.locator("article[data-local-id]").count()).toBe(0);
    }
    expect(expected.length).toBe(5);
    await screenshots(mel.page, "chat-topic");
  });

  test("a queue the server dropped: the page registers again and catches up", async () => {
    // The page's queue, read from its register answer, is deleted with Mel's own key.
    const registered = mel.page.waitForResponse((response) => response.url().endsWith("/api/v1/register"));
    await mel.page.reload();
    const queueId = ((await (await registered).json()) as { queue_id: string }).queue_id;
    await row(mel.page, "Back to normal").waitFor();
    ok(await org.member.api.delete("/events", { queue_id: queueId }));
    ok(await org.member2.api.post("/messages", { type: "stream", to: lobbyId, topic: "launch plans", content: "Sent as her queue went away" }));
    await row(mel.page, "Sent as her queue went away").waitFor({ timeout: 10_000 });
    const expected = await serverIds(org.member, [
      { operator: "channel", operand: lobbyId },
      { operator: "topic", operand: "launch plans" },
    ]);
    await eventually(() => shownIds(mel.page), expected);
  });

  test("subscription and user changes arrive live: a new channel, a rename, a leave", async () => {
    ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "announcements" }]), principals: JSON.stringify([org.member.id]) }));
    const announcements = mel.page.locator(".chat-sidebar a[data-channel-id]", { hasText: "announcements" });
    await announcements.waitFor({ timeout: 5000 });

    ok(await org.owner.api.patch(`/users/${org.member2.id}`, { full_name: "Maxine Member" }));
    await mel.page.locator(`.chat-sidebar a[data-dm="${org.member2.id}"]`, { hasText: "Maxine Member" }).waitFor({ timeout: 5000 });

    ok(await org.member.api.delete("/users/me/subscriptions", { subscriptions: JSON.stringify(["announcements"]) }));
    await announcements.waitFor({ state: "detached", timeout: 5000 });
  });

  test("no page errors, and the server refused nothing but the lost queues", () => {
    // The browser logs every failed request; those of the restart and the dropped queue are expected.
    const unexpected = (errors: string[]) => errors.filter((error) => !/Failed to load resource: (net::ERR_(CONNECTION_REFUSED|EMPTY_RESPONSE|CONNECTION_RESET)|the server responded with a status of 400)/.test(error));
    expect(unexpected(mel.errors)).toEqual([]);
    expect(unexpected(max.errors)).toEqual([]);
    expect(new Set(mel.refusals)).toEqual(new Set(["GET /api/v1/events 400 BAD_EVENT_QUEUE_ID"]));
    expect(new Set(max.refusals)).toEqual(new Set(["GET /api/v1/events 400 BAD_EVENT_QUEUE_ID"]));
  });
});
