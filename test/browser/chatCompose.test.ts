import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots, signIn, eventually } from "../helpers/browser";
import { ok, seedOrg, type Org, type Person } from "../helpers/seed";

/**
 * The compose box in real Chromium, as Mel uses it: Enter and Shift+Enter, the autocompletes,
 * drafts, the checks made before sending, new direct messages, Reply, typing notices in both
 * directions and ↑ to edit. Each test opens its own browser context (so drafts, kept in
 * localStorage, never leak between tests) and checks what the page shows and what the server got.
 */

let org: Org;
let browser: Browser;
let generalId: number;
let designId: number;

interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

const composeBox = (page: Page) => page.getByLabel("Message", { exact: true });
const topicField = (page: Page) => page.getByLabel("Topic", { exact: true });
const channelPicker = (page: Page) => page.getByLabel("Channel", { exact: true });
const row = (page: Page, text: string) => page.locator('[data-testid="message-list"] article[data-message-id]', { hasText: text });
const isFocused = (page: Page, label: string) => page.getByLabel(label, { exact: true }).evaluate((element) => element === document.activeElement);
/** Focus asked for by a key or a button moves after a redraw: waits for it. */
const focusGoesTo = (page: Page, label: string) => eventually(() => isFocused(page, label), true);

const topicUrl = (channelId: number, name: string, topic: string) => `${org.server.url}/#narrow/channel/${channelId}-${name}/topic/${topic.replaceAll(" ", ".20")}`;
const dmUrl = (person: Person, slug: string) => `${org.server.url}/#narrow/dm/${person.id}-${slug}`;

/** The newest message `person` can see, as the server has it. */
async function newestMessage(person: Person, narrow: unknown[] = []) {
  return ok(await person.api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify(narrow) })).messages.at(-1);
}

/** Contexts of the test under way: closed after it even when it fails. */
const contexts: BrowserContext[] = [];

async function open(options: { phone?: boolean; dark?: boolean } = {}): Promise<Opened> {
  const context = await newContext(browser, options);
  contexts.push(context);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signIn(page, org.server.url, org.member.email, org.member.password);
  return { context, page, errors };
}

/** Ends a test: the page logged no errors, and its context goes. */
async function close({ context, errors }: Opened) {
  await context.close();
  expect(errors).toEqual([]);
}

/** Max's event queue for typing notices, and a way to wait for one from Mel. */
async function typingListener() {
  const queue = ok(await org.member2.api.post("/register", { event_types: JSON.stringify(["typing"]) }));
  let lastId = -1;
  return {
    /** Reads Max's queue until Mel's typing `op` arrives (each event is read once). */
    async waitFor(op: "start" | "stop", timeoutMs = 5000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const events = ok(await org.member2.api.get("/events", { queue_id: queue.queue_id, last_event_id: lastId, dont_block: true })).events as Array<{ id: number; type: string; op: string; sender: { user_id: number } }>;
        for (const event of events) {
          lastId = Math.max(lastId, event.id);
          if (event.type === "typing" && event.op === op && event.sender.user_id === org.member.id) return;
        }
        await Bun.sleep(100);
      }
      throw new Error(`Max's queue got no typing ${op} from Mel within ${timeoutMs} ms`);
    },
    dispose: () => org.member2.api.delete("/events", { queue_id: queue.queue_id }),
  };
}

beforeAll(async () => {
  org = await seedOrg({ rateLimits: true });
  browser = await launchBrowser();
  ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "general" }, { name: "design" }]), principals: JSON.stringify([org.owner.id, org.member.id, org.member2.id]) }));
  const subs = ok(await org.member.api.get("/users/me/subscriptions")).subscriptions as Array<{ name: string; stream_id: number }>;
  generalId = subs.find((sub) => sub.name === "general")!.stream_id;
  designId = subs.find((sub) => sub.name === "design")!.stream_id;
  ok(await org.member2.api.post("/messages", { type: "stream", to: generalId, topic: "deploy plan", content: "We deploy on Friday." }));
  ok(await org.member2.api.post("/messages", { type: "stream", to: generalId, topic: "lunch", content: "Pizza?" }));
}, 120_000);
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
  await org?.server.dispose();
});

describeInBrowser("the chat's compose box", () => {
  test("in a topic: Enter sends there, the box empties and keeps the focus; Shift+Enter adds a line", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(topicUrl(generalId, "general", "deploy plan"));
    const box = composeBox(page);
    await box.waitFor();
    expect(await box.getAttribute("placeholder")).toBe("Message #general > deploy plan");
    expect(await topicField(page).inputValue()).toBe("deploy plan");

    await box.click();
    await box.fill("Hello from the compose box");
    await box.press("Enter");
    expect(await box.inputValue()).toBe("");
    await row(page, "Hello from the compose box").waitFor();
    expect(await row(page, "Hello from the compose box").count()).toBe(1);
    expect(await isFocused(page, "Message")).toBe(true);
    await eventually(async () => {
      const newest = await newestMessage(org.member2);
      return [newest.sender_id, newest.subject, newest.content.includes("Hello from the compose box")];
    }, [org.member.id, "deploy plan", true]);

    await box.press("a");
    await box.press("Shift+Enter");
    await box.press("b");
    expect(await box.inputValue()).toBe("a\nb");
    await close(opened);
  });

  test("autocomplete: @ people, # channel then > topic, : emoji; Escape closes the list, then leaves the box", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(topicUrl(generalId, "general", "deploy plan"));
    const box = composeBox(page);
    await box.click();

    await box.pressSequentially("hi @ma");
    const suggestions = page.getByRole("listbox");
    await suggestions.waitFor();
    await screenshots(page, "compose-mention");
    const options = await suggestions.getByRole("option").allTextContents();
    expect(options[0]).toContain("Max Member");
    expect(await box.getAttribute("aria-activedescendant")).toBeTruthy();
    await box.press("Enter");
    expect(await box.inputValue()).toBe("hi @**Max Member** ");

    // ">" after a channel goes on to its topics; Tab picks one.
    await box.pressSequentially("#gen");
    await suggestions.waitFor();
    await box.press(">");
    expect(await box.inputValue()).toBe("hi @**Max Member** #**general>");
    await box.pressSequentially("lu");
    await page.getByRole("option", { name: /lunch/ }).waitFor();
    await box.press("Tab");
    expect(await box.inputValue()).toBe("hi @**Max Member** #**general>lunch** ");

    await box.pressSequentially(":tad");
    await page.getByRole("option", { name: /tada/ }).waitFor();
    await box.press("Enter");
    expect(await box.inputValue()).toBe("hi @**Max Member** #**general>lunch** :tada: ");

    await box.pressSequentially(":sm");
    await suggestions.waitFor();
    await box.press("Escape");
    await suggestions.waitFor({ state: "detached" });
    expect(await isFocused(page, "Message")).toBe(true);
    await box.press("Escape");
    expect(await isFocused(page, "Message")).toBe(false);
    await close(opened);
  });

  test("a draft survives a reload and stays with its conversation when switching", async () => {
    const opened = await open();
    const { page } = opened;
    const box = composeBox(page);
    await page.goto(topicUrl(generalId, "general", "deploy plan"));
    await box.click();
    await box.pressSequentially("Half-written thought about the deploy");
    // Reloading at once, inside the save delay: the page saves on its way out.
    await page.reload();
    await eventually(() => box.inputValue(), "Half-written thought about the deploy");

    await page.goto(topicUrl(generalId, "general", "lunch"));
    await eventually(() => box.inputValue(), "");
    await box.click();
    await box.pressSequentially("A lunch draft");
    await page.goBack();
    await eventually(() => box.inputValue(), "Half-written thought about the deploy");
    await page.goForward();
    await eventually(() => box.inputValue(), "A lunch draft");

    // Sending ends the draft: after a reload the box is empty.
    await box.press("Enter");
    await row(page, "A lunch draft").waitFor();
    await page.reload();
    await row(page, "A lunch draft").waitFor();
    expect(await box.inputValue()).toBe("");
    await close(opened);
  });

  test("a message over the length limit is not sent, and says the limit", async () => {
    const opened = await open();
    const { page } = opened;
    const before = (await newestMessage(org.member)).id;
    await page.goto(topicUrl(generalId, "general", "deploy plan"));
    const box = composeBox(page);
    await box.fill("x".repeat(10_001));
    await box.press("Enter");
    await page.getByRole("alert").filter({ hasText: "The message is 10001 characters long; the limit is 10000" }).waitFor();
    expect(await box.getAttribute("aria-invalid")).toBe("true");
    expect((await box.inputValue()).length).toBe(10_001);
    expect((await newestMessage(org.member)).id).toBe(before);
    await close(opened);
  });

  test("in a channel's view the topic comes first, with the channel's topics suggested", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(`${org.server.url}/#narrow/channel/${generalId}-general`);
    const box = composeBox(page);
    await box.waitFor();
    expect(await topicField(page).inputValue()).toBe("");
    await page.keyboard.press("c");
    await focusGoesTo(page, "Topic");
    await page.getByRole("option", { name: /deploy plan/ }).waitFor();
    await page.getByRole("option", { name: /lunch/ }).waitFor();
    await screenshots(page, "compose-topics");

    await topicField(page).fill("new topic");
    await topicField(page).press("Enter");
    expect(await isFocused(page, "Message")).toBe(true);
    await box.fill("First in the new topic");
    await box.press("Enter");
    await row(page, "First in the new topic").waitFor();
    await eventually(async () => (await newestMessage(org.member2)).subject, "new topic");
    await close(opened);
  });

  test("in the feed the channel must be chosen before sending", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(`${org.server.url}/#feed`);
    const box = composeBox(page);
    await channelPicker(page).waitFor();
    await box.click();
    await box.fill("Where does this go?");
    await box.press("Enter");
    await page.getByRole("alert").filter({ hasText: "Choose a channel" }).waitFor();
    await focusGoesTo(page, "Channel");

    await channelPicker(page).selectOption({ label: "#design" });
    await topicField(page).fill("colours");
    expect(await box.inputValue()).toBe("Where does this go?");
    await box.press("Enter");
    await row(page, "Where does this go?").waitFor();
    await eventually(async () => {
      const newest = await newestMessage(org.member2);
      return [newest.stream_id, newest.subject, newest.content];
    }, [designId, "colours", "<p>Where does this go?</p>"]);
    await close(opened);
  });

  test("a new direct message from the feed: pick the person, write, send", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(`${org.server.url}/#feed`);
    // Switching the kind of message puts the focus in the first field to fill.
    await page.getByRole("button", { name: "Direct message", exact: true }).click();
    await focusGoesTo(page, "People");
    await page.getByRole("button", { name: "Channel message", exact: true }).click();
    await focusGoesTo(page, "Channel");
    await page.getByRole("button", { name: "Direct message", exact: true }).click();
    const people = page.getByRole("combobox", { name: "People" });
    await focusGoesTo(page, "People");
    await people.pressSequentially("max");
    await page.getByRole("option", { name: /Max Member/ }).waitFor();
    await people.press("Enter");
    await page.locator(".compose-person", { hasText: "Max Member" }).waitFor();
    // Enter in the emptied field moves on to the message.
    await people.press("Enter");
    expect(await isFocused(page, "Message")).toBe(true);
    const box = composeBox(page);
    expect(await box.getAttribute("placeholder")).toBe("Message Max Member");
    await box.fill("A word in private, from the feed");
    await box.press("Enter");
    await row(page, "A word in private, from the feed").waitFor();
    await eventually(async () => {
      const newest = await newestMessage(org.member2, [{ operator: "dm", operand: [org.member.id] }]);
      return [newest?.sender_id, newest?.content];
    }, [org.member.id, "<p>A word in private, from the feed</p>"]);
    await close(opened);
  });

  test("Reply on a message in the feed aims the box at its topic", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(`${org.server.url}/#feed`);
    const pizza = row(page, "Pizza?");
    await pizza.hover();
    await pizza.getByRole("button", { name: "Reply" }).click();
    const box = composeBox(page);
    await focusGoesTo(page, "Message");
    expect(await box.getAttribute("placeholder")).toBe("Message #general > lunch");
    expect(await channelPicker(page).inputValue()).toBe(String(generalId));
    expect(await topicField(page).inputValue()).toBe("lunch");
    await box.fill("Yes to pizza");
    await box.press("Enter");
    await eventually(async () => {
      const newest = await newestMessage(org.member2);
      return [newest.stream_id, newest.subject, newest.content];
    }, [generalId, "lunch", "<p>Yes to pizza</p>"]);
    await close(opened);
  });

  test("typing notices go out: start while Mel writes to Max, stop when she sends", async () => {
    const listener = await typingListener();
    const opened = await open();
    const { page } = opened;
    try {
      await page.goto(dmUrl(org.member2, "Max-Member"));
      const box = composeBox(page);
      await box.click();
      await box.pressSequentially("psst");
      await listener.waitFor("start");
      await box.press("Enter");
      await listener.waitFor("stop");
      await row(page, "psst").waitFor();
    } finally {
      await listener.dispose();
    }
    await close(opened);
  });

  test("typing notices come in: Max typing shows under the box and goes when he stops", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(dmUrl(org.member2, "Max-Member"));
    await composeBox(page).waitFor();
    const notice = page.locator(".compose-typing", { hasText: "Max Member is typing…" });
    ok(await org.member2.api.post("/typing", { op: "start", to: JSON.stringify([org.member.id]) }));
    await notice.waitFor();
    await screenshots(page, "compose-dm-typing");
    ok(await org.member2.api.post("/typing", { op: "stop", to: JSON.stringify([org.member.id]) }));
    await notice.waitFor({ state: "detached" });
    expect(await page.locator(".compose-typing").textContent()).toBe("");
    await close(opened);
  });

  test("↑ in the empty box edits Mel's last message in the conversation", async () => {
    const { id } = ok(await org.member.api.post("/messages", { type: "private", to: JSON.stringify([org.member2.id]), content: "The last thing Mel said" }));
    const opened = await open();
    const { page } = opened;
    await page.goto(dmUrl(org.member2, "Max-Member"));
    await row(page, "The last thing Mel said").waitFor();
    const box = composeBox(page);
    await box.click();
    await box.press("ArrowUp");
    // The editor takes the place of the text, in that message's row.
    const editor = page.locator(`article[data-message-id="${id}"]`).getByLabel("Edit message");
    await editor.waitFor();
    await eventually(() => editor.inputValue(), "The last thing Mel said");
    await screenshots(page, "compose-edit-up");
    await editor.press("Escape");
    await editor.waitFor({ state: "detached" });
    await close(opened);
  });

  test("notes to self say so in the box", async () => {
    const opened = await open();
    const { page } = opened;
    await page.goto(dmUrl(org.member, "Mel-Member"));
    await eventually(() => composeBox(page).getAttribute("placeholder"), "Write yourself a note");
    await close(opened);
  });

  test("where topics are mandatory, a message without one is refused and the topic asked", async () => {
    ok(await org.owner.api.patch("/realm", { mandatory_topics: true }));
    try {
      const opened = await open();
      const { page } = opened;
      const before = (await newestMessage(org.member)).id;
      await page.goto(`${org.server.url}/#narrow/channel/${generalId}-general`);
      const box = composeBox(page);
      await eventually(() => box.getAttribute("placeholder"), "Message #general");
      await box.click();
      await box.fill("no topic here");
      await box.press("Enter");
      await page.getByRole("alert").filter({ hasText: "This organization requires a topic" }).waitFor();
      await focusGoesTo(page, "Topic");
      expect((await newestMessage(org.member)).id).toBe(before);
      await close(opened);
    } finally {
      ok(await org.owner.api.patch("/realm", { mandatory_topics: false }));
    }
  });

  test("on a dark phone the box grows with its text up to 40% of the screen", async () => {
    const opened = await open({ phone: true, dark: true });
    const { page } = opened;
    await page.goto(topicUrl(generalId, "general", "deploy plan"));
    const box = composeBox(page);
    await box.fill("A long line of text\n".repeat(30));
    const height = await box.evaluate((element) => element.getBoundingClientRect().height);
    expect(height).toBeGreaterThan(100);
    expect(height).toBeLessThanOrEqual(844 * 0.4 + 1);
    await screenshots(page, "compose-dark-phone");
    await close(opened);
  });
});
