import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn, eventually } from "../helpers/browser";
import { ok, seedOrg, type Org, type Person } from "../helpers/seed";

/**
 * What the chat does around the messages, in real Chromium: notifications, the tab title,
 * the keyboard, the phone drawer, history and memory under load, reading only what is seen,
 * and the dark theme. Mel reads in the page; Max (and Mel herself, as another client) act
 * through the API. Each test opens its own browser context and starts from "all read".
 */

let org: Org;
let browser: Browser;
const channelIds = new Map<string, number>();
const CHANNELS = ["general", "keys", "history", "traffic", "flood"];

interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

const LIST = '[data-testid="message-list"]';
const row = (page: Page, text: string) => page.locator(`${LIST} article[data-message-id]`, { hasText: text });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const composeBox = (page: Page) => page.getByLabel("Message", { exact: true });
const sidebar = (page: Page) => page.locator(".chat-sidebar");
const isFocused = (page: Page, label: string) => page.getByLabel(label, { exact: true }).evaluate((element) => element === document.activeElement);
/** Focus moves after a redraw: waits for it. */
const focusGoesTo = (page: Page, label: string) => eventually(() => isFocused(page, label), true);
const rowCount = (page: Page) => page.locator("[data-message-id]").count();
const channelId = (name: string) => channelIds.get(name)!;

const url = (hash: string) => `${org.server.url}/${hash}`;
const topicHash = (channel: string, topic: string) => `#narrow/channel/${channelId(channel)}-${channel}/topic/${encodeURIComponent(topic).replaceAll("%", ".")}`;
const notesToSelf = () => `#narrow/dm/${org.member.id}-Mel-Member`;

const streamMessage = (channel: string, topic: string, content: string) => ({ type: "stream", to: channelId(channel), topic, content });

/** Sends `count` messages as `person`, `parallel` at a time; the ids, oldest first. */
async function sendMany(person: Person, count: number, message: (index: number) => Record<string, unknown>, parallel = 25): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, offset) => person.api.post("/messages", message(start + offset))));
    for (const response of batch) ids.push(ok(response).id);
  }
  return ids.sort((a, b) => a - b);
}

/** A topic's messages as the server has them for Mel: id and whether it is read, oldest first. */
async function readFlags(channel: string, topic: string): Promise<Array<{ id: number; read: boolean }>> {
  const narrow = [
    { operator: "channel", operand: channelId(channel) },
    { operator: "topic", operand: topic },
  ];
  const body = ok(await org.member.api.get("/messages", { anchor: "oldest", num_before: 0, num_after: 1000, narrow: JSON.stringify(narrow) }));
  return body.messages.map((message: { id: number; flags: string[] }) => ({ id: message.id, read: message.flags.includes("read") }));
}

/** Mel's unread count as a fresh client would get it. */
async function serverUnreadCount(): Promise<number> {
  const registered = ok(await org.member.api.post("/register", { event_types: JSON.stringify(["message", "update_message_flags"]) }));
  ok(await org.member.api.delete("/events", { queue_id: registered.queue_id }));
  return registered.unread_msgs.count;
}

/**
 * Mel in a fresh context, signed in, with nothing unread at that moment (so the feed she lands
 * on reads nothing), then at `hash`. `prepare` runs on the page before anything loads.
 */
async function openAsMel(hash: string, options: { phone?: boolean; dark?: boolean; prepare?: (page: Page) => Promise<void> } = {}): Promise<Opened> {
  ok(await org.member.api.post("/mark_all_as_read"));
  return openAs(org.member, hash, options);
}

/** Contexts of the test under way: closed after it even when it fails, so no page reads on in the background. */
const contexts: BrowserContext[] = [];

async function openAs(person: Person, hash: string, options: { phone?: boolean; dark?: boolean; prepare?: (page: Page) => Promise<void> } = {}): Promise<Opened> {
  const context = await newContext(browser, options);
  contexts.push(context);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await options.prepare?.(page);
  // Messages sent after the register answer reach the page as events.
  const registered = page.waitForResponse((response) => response.url().endsWith("/api/v1/register"));
  await signIn(page, org.server.url, person.email, person.password);
  await registered;
  await heading(page).filter({ hasText: "Combined feed" }).waitFor();
  if (hash !== "#feed") await page.goto(url(hash));
  return { context, page, errors };
}

/** Ends a test: the page logged no errors, and its context goes. */
async function close({ context, errors }: Opened) {
  await context.close();
  expect(errors).toEqual([]);
}

beforeAll(async () => {
  // The traffic these tests make up (hundreds of messages in a second) comes from one account
  // over the API, far faster than anyone types; the chat's own long-poll keeps its default bucket.
  org = await seedOrg({ rateLimits: true, env: { PARLEY_RATE_LIMIT_API: "off", PARLEY_RATE_LIMIT_SENDS: "off" } });
  browser = await launchBrowser();
  ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify(CHANNELS.map((name) => ({ name }))), principals: JSON.stringify([org.owner.id, org.member.id, org.member2.id]) }));
  const subs = ok(await org.member.api.get("/users/me/subscriptions")).subscriptions as Array<{ name: string; stream_id: number }>;
  for (const sub of subs) channelIds.set(sub.name, sub.stream_id);
  // A little conversation for the screenshots.
  for (const [person, topic, content] of [
    [org.member2, "release", "The release notes are ready for review."],
    [org.owner, "release", "Thanks! I'll read them **today**."],
    [org.member, "release", "I added the migration steps at the end."],
    [org.member2, "lunch", "Pizza on Friday? :pizza:"],
  ] as const) {
    ok(await person.api.post("/messages", streamMessage("general", topic, content)));
  }
}, 120_000);
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
  await org?.server.dispose();
});

describeInBrowser("the chat's behaviours", () => {
  test("themes: the feed in light, and in the person's dark scheme", async () => {
    const light = await openAsMel("#feed");
    await row(light.page, "Pizza on Friday?").waitFor();
    expect(await light.page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    await screenshots(light.page, "chat-feed");
    await close(light);

    // Max chose dark in his settings; the page follows it though the device is light.
    ok(await org.member2.api.patch("/settings", { color_scheme: 2 }));
    try {
      const dark = await openAs(org.member2, "#feed");
      await dark.page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
      await row(dark.page, "Pizza on Friday?").waitFor();
      const background = await dark.page.locator(".chat-main").evaluate((element) => getComputedStyle(element).backgroundColor);
      const [red, green, blue] = background.match(/\d+/g)!.map(Number);
      expect(red + green + blue).toBeLessThan(3 * 80);
      await screenshots(dark.page, "chat-feed-dark");
      await close(dark);
    } finally {
      ok(await org.member2.api.patch("/settings", { color_scheme: 1 }));
    }
  });

  test("notifications: one for a direct message and one for a mention, with the sender's name; none for plain or own messages", async () => {
    const opened = await openAsMel(notesToSelf(), {
      prepare: async (page) => {
        await page.context().grantPermissions(["notifications"]);
        // The page's Notification records what it would show; the tab never has the focus.
        await page.addInitScript(() => {
          const shown: Array<{ title: string; body: string }> = [];
          class RecordingNotification {
            static permission = "granted";
            static requestPermission = () => Promise.resolve("granted");
            onclick: (() => void) | null = null;
            constructor(title: string, options: { body?: string } = {}) {
              shown.push({ title, body: options.body ?? "" });
            }
            close() {}
          }
          Object.assign(window, { Notification: RecordingNotification, shownNotifications: shown });
          document.hasFocus = () => false;
        });
      },
    });
    const { page } = opened;
    const shown = () => page.evaluate(() => (window as unknown as { shownNotifications: Array<{ title: string; body: string }> }).shownNotifications);
    await heading(page).filter({ hasText: "Mel Member (you)" }).waitFor();

    // Nothing for these: each batch ends with one that notifies, so the page has seen them all.
    ok(await org.member2.api.post("/messages", streamMessage("general", "plans", "A plain message for everyone")));
    ok(await org.member.api.post("/messages", { type: "private", to: JSON.stringify([org.member2.id]), content: "Mel writes to Max from her phone" }));
    ok(await org.member.api.post("/messages", streamMessage("general", "plans", "Note to @**Mel Member**: Mel mentions herself")));
    ok(await org.member2.api.post("/messages", { type: "private", to: JSON.stringify([org.member.id]), content: "Are you there?" }));
    await eventually(async () => (await shown()).length, 1);
    expect(await shown()).toEqual([{ title: "Max Member", body: "Are you there?" }]);

    ok(await org.member2.api.post("/messages", streamMessage("general", "plans", "@**Mel Member** can you look at the plan?")));
    await eventually(async () => (await shown()).length, 2);
    expect((await shown())[1].title).toBe("Max Member in #general › plans");
    expect((await shown())[1].body).toContain("can you look at the plan?");

    ok(await org.member2.api.post("/messages", streamMessage("general", "plans", "Another plain one")));
    await composeBox(page).fill("Mel's own note, sent from the page");
    await composeBox(page).press("Enter");
    await row(page, "Mel's own note, sent from the page").waitFor();
    ok(await org.member2.api.post("/messages", { type: "private", to: JSON.stringify([org.member.id]), content: "Last one" }));
    await eventually(async () => (await shown()).length, 3);
    expect((await shown()).map((notification) => notification.title)).toEqual(["Max Member", "Max Member in #general › plans", "Max Member"]);
    await close(opened);
  });

  test("the tab title starts with the unread count, the server's, and drops it once all is read", async () => {
    const opened = await openAsMel(notesToSelf());
    const { page } = opened;
    await heading(page).filter({ hasText: "Mel Member (you)" }).waitFor();
    expect(await page.title()).toBe("Mel Member (you) · Test Org");

    // Live: messages arrive while Mel is elsewhere.
    await sendMany(org.member2, 3, (index) => streamMessage("general", "title check", `Unread number ${index + 1}`));
    ok(await org.member2.api.post("/messages", { type: "private", to: JSON.stringify([org.member.id]), content: "And a direct one" }));
    expect(await serverUnreadCount()).toBe(4);
    await eventually(() => page.title(), "(4) Mel Member (you) · Test Org");

    // On loading: the register's count.
    await page.reload();
    await heading(page).filter({ hasText: "Mel Member (you)" }).waitFor();
    await eventually(() => page.title(), `(${await serverUnreadCount()}) Mel Member (you) · Test Org`);

    // Everything read elsewhere: the event clears the count.
    ok(await org.member.api.post("/mark_all_as_read"));
    await eventually(() => page.title(), "Mel Member (you) · Test Org");
    expect(await serverUnreadCount()).toBe(0);
    await close(opened);
  });

  test("keyboard only: search, shortcuts list, next unread, j/k, c, r, x and Escape back to the feed", async () => {
    const opened = await openAsMel(notesToSelf());
    const { page } = opened;
    await heading(page).filter({ hasText: "Mel Member (you)" }).waitFor();
    const alpha = await sendMany(org.member2, 2, (index) => streamMessage("keys", "alpha", `Alpha ${index + 1}`), 1);
    const beta = await sendMany(org.member2, 4, (index) => streamMessage("keys", "beta", `Beta ${index + 1}`), 1);
    await page.locator(`.chat-sidebar a[data-channel-id="${channelId("keys")}"] .unread-count`).filter({ hasText: "6" }).waitFor();

    await page.keyboard.press("/");
    await focusGoesTo(page, "Search messages");
    await page.keyboard.press("Escape");
    expect(await isFocused(page, "Search messages")).toBe(false);
    expect(await heading(page).textContent()).toBe("Mel Member (you)");

    await page.keyboard.press("?");
    const keys = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await keys.waitFor();
    expect(await keys.textContent()).toContain("Next conversation with unread messages");
    await page.keyboard.press("Escape");
    await keys.waitFor({ state: "hidden" });

    await page.keyboard.press("n");
    await heading(page).filter({ hasText: "#keys › alpha" }).waitFor();
    await row(page, "Alpha 2").waitFor();
    await page.keyboard.press("n");
    await heading(page).filter({ hasText: "#keys › beta" }).waitFor();
    await row(page, "Beta 4").waitFor();

    // j starts at the first row on screen; the selected row says so.
    const selected = () => page.$$eval(`${LIST} article.selected`, (rows) => rows.map((element) => Number((element as HTMLElement).dataset.messageId)));
    await page.keyboard.press("j");
    await eventually(selected, [beta[0]]);
    await page.keyboard.press("j");
    await eventually(selected, [beta[1]]);
    await page.keyboard.press("k");
    await eventually(selected, [beta[0]]);

    await page.keyboard.press("c");
    await focusGoesTo(page, "Message");
    expect(await composeBox(page).getAttribute("placeholder")).toBe("Message #keys > beta");
    await page.keyboard.press("Escape");
    expect(await isFocused(page, "Message")).toBe(false);

    await page.keyboard.press("Escape");
    await heading(page).filter({ hasText: "Combined feed" }).waitFor();
    await row(page, "Beta 1").waitFor();
    // In the feed, k moves up from Beta 1 to the message before it: Alpha 2, in the other topic.
    await page.keyboard.press("k");
    await eventually(selected, [alpha[1]]);
    await page.keyboard.press("r");
    await focusGoesTo(page, "Message");
    expect(await composeBox(page).getAttribute("placeholder")).toBe("Message #keys > alpha");
    await page.keyboard.press("Escape");

    await page.keyboard.press("x");
    await focusGoesTo(page, "People");
    await close(opened);
  });

  test("on a phone the sidebar is a drawer: the menu opens it, tapping a channel goes there and closes it", async () => {
    const opened = await openAsMel("#feed", { phone: true });
    const { page } = opened;
    await row(page, "Pizza on Friday?").waitFor();
    expect(await sidebar(page).isVisible()).toBe(false);

    const menu = page.getByRole("button", { name: "Conversations" });
    await menu.tap();
    await sidebar(page).waitFor({ state: "visible" });
    await screenshots(page, "chat-phone-drawer");

    await page.locator(`.chat-sidebar a[data-channel-id="${channelId("general")}"]`).tap();
    await heading(page).filter({ hasText: /^#general$/ }).waitFor();
    await sidebar(page).waitFor({ state: "hidden" });

    await menu.tap();
    await page.locator('.chat-sidebar a[data-topic="release"]').tap();
    await heading(page).filter({ hasText: "#general › release" }).waitFor();
    await sidebar(page).waitFor({ state: "hidden" });
    await row(page, "migration steps").waitFor();
    await screenshots(page, "chat-phone-topic");
    await close(opened);
  });

  test("history: scrolling up loads older messages without moving what is on screen, up to the beginning; never over 400 rows", async () => {
    const ids = await sendMany(org.member2, 300, (index) => streamMessage("history", "old times", `History message ${index + 1}`));
    const opened = await openAsMel(topicHash("history", "old times"));
    const { page } = opened;
    await page.locator(`article[data-message-id="${ids.at(-1)}"]`).waitFor();
    const scroller = page.locator(LIST);
    const idle = () => scroller.locator("xpath=self::*[@aria-busy='false']").waitFor();
    const firstId = () => page.$eval(`${LIST} article[data-message-id]`, (element) => Number((element as HTMLElement).dataset.messageId));
    const beginning = page.getByText("This is the beginning of #history › old times.");

    let loads = 0;
    while (!(await beginning.isVisible())) {
      await idle();
      const before = await firstId();
      // To the top: the row there now is the one that must stay put when older ones come.
      const top = await scroller.evaluate((element) => {
        element.scrollTop = 0;
        const first = element.querySelector<HTMLElement>("article[data-message-id]")!;
        first.dataset.seenBefore = "yes";
        return { id: Number(first.dataset.messageId), y: first.getBoundingClientRect().top };
      });
      await page.waitForFunction((oldest) => {
        const first = document.querySelector<HTMLElement>('[data-testid="message-list"] article[data-message-id]');
        return Number(first?.dataset.messageId) < oldest || document.body.textContent!.includes("This is the beginning of #history");
      }, before);
      await idle();
      // Two frames: whatever the page does after a page of history lands has been done.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      if ((await firstId()) < before) {
        loads++;
        const kept = page.locator(`article[data-message-id="${top.id}"]`);
        const after = await kept.boundingBox();
        expect(Math.abs(after!.y - top.y)).toBeLessThan(3);
        // The same element, not a new one: rows already shown are not drawn again.
        expect(await kept.getAttribute("data-seen-before")).toBe("yes");
      }
      expect(await rowCount(page)).toBeLessThanOrEqual(400);
    }
    expect(loads).toBeGreaterThan(0);
    expect(await firstId()).toBe(ids[0]);
    expect(await rowCount(page)).toBeLessThanOrEqual(400);
    await close(opened);
  });

  test("under heavy traffic the feed follows the newest message and never holds over 400 rows", async () => {
    const newestBefore = ok(await org.member.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0 })).messages.at(-1).id;
    const opened = await openAsMel("#feed");
    const { page } = opened;
    await page.locator(`article[data-message-id="${newestBefore}"]`).waitFor();
    // Every change to the DOM is counted, not just samples of it.
    await page.evaluate(() => {
      const counted = { most: 0 };
      Object.assign(window, { rowsCounted: counted });
      new MutationObserver(() => {
        counted.most = Math.max(counted.most, document.querySelectorAll("[data-message-id]").length);
      }).observe(document.body, { childList: true, subtree: true });
    });
    const mostRows = () => page.evaluate(() => (window as unknown as { rowsCounted: { most: number } }).rowsCounted.most);

    const ids = await sendMany(org.member2, 600, (index) => streamMessage("traffic", `burst ${Math.floor(index / 100)}`, `Traffic ${index + 1}`), 30);
    await page.locator(`article[data-message-id="${ids.at(-1)}"]`).waitFor({ timeout: 20_000 });
    // At the bottom, the newest message is on screen.
    const newest = await page.locator(`article[data-message-id="${ids.at(-1)}"]`).boundingBox();
    const list = await page.locator(LIST).boundingBox();
    expect(newest!.y + newest!.height).toBeLessThanOrEqual(list!.y + list!.height + 1);
    expect(newest!.y).toBeGreaterThanOrEqual(list!.y);

    expect(await mostRows()).toBeGreaterThan(100);
    expect(await mostRows()).toBeLessThanOrEqual(400);
    expect(await rowCount(page)).toBeLessThanOrEqual(400);
    await close(opened);
  });

  test("messages are read only when seen: not in another topic, and in their own only as far as the screen shows", async () => {
    ok(await org.member2.api.post("/messages", streamMessage("flood", "other", "Something else entirely")));
    const opened = await openAsMel(topicHash("flood", "other"));
    const { page } = opened;
    await row(page, "Something else entirely").waitFor();
    const pile = await sendMany(org.member2, 100, (index) => streamMessage("flood", "pile", `Pile message ${index + 1}`));
    await page.locator(`.chat-sidebar a[data-channel-id="${channelId("flood")}"] .unread-count`).filter({ hasText: "100" }).waitFor();
    await Bun.sleep(2000);
    expect((await readFlags("flood", "pile")).filter((message) => message.read)).toEqual([]);

    // The topic opens at its first unread message: what fits on screen is read, the rest is not.
    await page.goto(url(topicHash("flood", "pile")));
    await page.locator(`article[data-message-id="${pile[0]}"]`).waitFor();
    await eventually(async () => (await readFlags("flood", "pile")).some((message) => message.read), true);
    await Bun.sleep(2000);
    const onScreen = await page.locator(LIST).evaluate((scroller) => {
      const view = scroller.getBoundingClientRect();
      return [...scroller.querySelectorAll<HTMLElement>("article[data-message-id]")]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.bottom > view.top && box.top < view.bottom;
        })
        .map((element) => Number(element.dataset.messageId));
    });
    const flags = await readFlags("flood", "pile");
    const read = flags.filter((message) => message.read).map((message) => message.id);
    expect(read.length).toBeGreaterThan(0);
    expect(read.every((id) => onScreen.includes(id))).toBe(true);
    // Read from the top down, and most of the pile is still waiting.
    expect(read).toEqual(pile.slice(0, read.length));
    expect(read.length).toBeLessThan(40);
    expect(flags.filter((message) => !message.read).length).toBe(100 - read.length);
    await close(opened);
  });
  test("offline and back: a banner while the network is gone, then what was missed arrives once, without a reload", async () => {
    const opened = await openAsMel(topicHash("general", "offline"));
    const { context, page } = opened;
    await page.getByRole("heading", { name: /offline/, level: 1 }).waitFor();
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await context.setOffline(true);
    // The parked long-poll fails at once; the banner shows after the retries that follow.
    await page.locator(".connection-banner").waitFor({ timeout: 15_000 });
    const missed = await sendMany(org.member2, 3, (index) => streamMessage("general", "offline", `Missed while offline ${index + 1}`));
    await context.setOffline(false);
    await page.locator(".connection-banner").waitFor({ state: "detached", timeout: 15_000 });
    for (const id of missed) await page.locator(`article[data-message-id="${id}"]`).waitFor({ timeout: 5000 });
    expect(await row(page, "Missed while offline").count()).toBe(3);
    // The same page, not a reload.
    expect(await page.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);
    // The browser logs the requests that failed offline; nothing else.
    opened.errors.splice(0, opened.errors.length, ...opened.errors.filter((error) => !/net::ERR_INTERNET_DISCONNECTED/.test(error)));
    await close(opened);
  });
});
