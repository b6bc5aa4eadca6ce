import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page, Route } from "playwright-core";
import { renderMessage } from "../../src/render/markdown";
import { serverEmojiData, serverEmojiDataPath } from "../../src/render/serverEmojiData";
import { collectPageErrors, describeInBrowser, launchBrowser, newContext, screenshots } from "../helpers/browser";
import { png } from "../helpers/images";
import { testContext } from "../unit/renderFixtures";

/**
 * The emoji picker and message emoji in Chromium, on their own: a small page bundles the
 * emoji modules with the chat's store (no server, no rest of the chat), and the page's
 * requests are answered here, so the test sees exactly what it fetches and when.
 */

const ROOT = join(import.meta.dir, "..", "..");
const EMOJI_DIR = join(ROOT, "src", "web", "client", "chat", "emoji");
// Loopback, and never connected to: every request is answered by page.route.
const ORIGIN = "http://127.0.0.1:9";
// The address the organization believes it has; the page must fetch from its own origin instead.
const REALM_URL = "http://localhost:8080";

const HARNESS = `
import { render } from "preact";
import { EmojiPicker } from "${join(EMOJI_DIR, "EmojiPicker")}";
import { showEmoji } from "${join(EMOJI_DIR, "render")}";
import { EmojiGlyph } from "${join(EMOJI_DIR, "glyph")}";
import { realm, realmEmoji } from "${join(ROOT, "src/web/client/chat/state/store")}";

realm.value = { ...realm.value, url: "${REALM_URL}", emojiDataUrl: "${REALM_URL}${serverEmojiDataPath()}" };
realmEmoji.value = { "7": { id: "7", name: "party_parrot", source_url: "${REALM_URL}/user_avatars/2/emoji/images/7.png", deactivated: false } };
const host = document.getElementById("host");
const w = window as any;
w.picked = []; w.closes = 0;
w.openPicker = () => render(<EmojiPicker onPick={(choice) => w.picked.push(choice)} onClose={() => { w.closes++; render(null, host); }} />, host);
w.showMessage = (html: string) => { const box = document.getElementById("message"); box.innerHTML = html; showEmoji(box); };
w.showGlyphs = () => render(<p id="glyphs"><EmojiGlyph name="tada" code="1f389" type="unicode_emoji" /><EmojiGlyph name="party_parrot" code="7" type="realm_emoji" /><EmojiGlyph name="zulip" code="zulip" type="svc_extra_emoji" /></p>, document.getElementById("glyph-host"));
`;

let browser: Browser;
let script = "";
let css = "";

beforeAll(async () => {
  const dir = join(ROOT, ".tmp");
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, `chat-emoji-harness-${process.pid}.tsx`);
  writeFileSync(entry, HARNESS);
  try {
    const built = await Bun.build({ entrypoints: [entry], target: "browser", format: "esm", define: { "process.env.NODE_ENV": '"development"' }, throw: false });
    if (!built.success) throw new Error(built.logs.map(String).join("\n"));
    script = await built.outputs[0].text();
  } finally {
    rmSync(entry, { force: true });
  }
  // The colour variables and the input style from the one stylesheet, and the emoji styles.
  const styles = readFileSync(join(ROOT, "src", "web", "client", "ui", "styles.css"), "utf8");
  const rootBlock = styles.match(/:root \{[\s\S]*?\n\}/)?.[0] ?? "";
  const inputRules = styles.split("\n").filter((line) => line.startsWith(".input") || line.startsWith(":root[") || line.startsWith("body") || line.startsWith("*"));
  css = [rootBlock, ...inputRules, readFileSync(join(EMOJI_DIR, "emoji.css"), "utf8"), "#host { position: relative; padding: 24px; } .emoji-picker { position: absolute; }"].join("\n");
  browser = await launchBrowser();
}, 60000);

afterAll(async () => {
  await browser?.close();
});

/** Serves the harness page, the custom emoji image and (when released) the emoji data; records requests. */
async function openHarness(options: { dark?: boolean; phone?: boolean } = {}) {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  const requests: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/*", async (route: Route) => {
    const url = route.request().url();
    requests.push(url);
    const path = new URL(url).pathname;
    if (path === "/") {
      const html = `<!doctype html><html><head><meta charset="utf-8"><style>${css}</style></head><body><div id="host"></div><div id="message"></div><div id="glyph-host"></div><script type="module">${script.replace(/<\/script/g, "<\\/script")}</script></body></html>`;
      return route.fulfill({ contentType: "text/html", body: html });
    }
    if (path === serverEmojiDataPath()) {
      await released;
      return route.fulfill({ contentType: "application/json", body: serverEmojiData().json });
    }
    if (path.startsWith("/user_avatars/2/emoji/images/")) return route.fulfill({ contentType: "image/png", body: Buffer.from(png()) });
    // A Zulip server has this image; the markup points at it (this server lacks it: see render.ts).
    if (path === "/static/generated/emoji/images/emoji/unicode/zulip.png") return route.fulfill({ contentType: "image/png", body: Buffer.from(png()) });
    return route.fulfill({ status: 404, body: "" });
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => typeof (window as any).openPicker === "function", undefined, { timeout: 5000 }).catch((error) => {
    throw new Error(`The harness did not start: ${errors.join("; ") || error}`);
  });
  return { page, context, errors, requests, release };
}

const picker = (page: Page) => page.locator(".emoji-picker");
const buttons = (page: Page) => page.locator(".emoji-grid button");
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? null);

describeInBrowser("the emoji picker", () => {
  test("loads the data lazily from the page's own origin, searches, and picks with the keyboard", async () => {
    const { page, context, errors, requests, release } = await openHarness();
    // Nothing is fetched before the picker (or a search) asks.
    expect(requests.some((url) => url.includes("/static/generated/emoji/"))).toBe(false);

    await page.evaluate(() => (window as any).openPicker());
    await page.getByText("Loading…").waitFor();
    expect(await focusedLabel(page)).toBe("Search emoji");
    // The popular set (and the organization's emoji) are there before the data is.
    expect(await buttons(page).first().getAttribute("aria-label")).toBe("+1");
    expect(await buttons(page).first().getAttribute("title")).toBe(":+1:");
    await page.getByRole("button", { name: "party_parrot" }).waitFor();
    const emojiRequests = requests.filter((url) => url.includes("/static/generated/emoji/"));
    expect(emojiRequests).toEqual([`${ORIGIN}${serverEmojiDataPath()}`]);

    release();
    await page.getByText("Loading…").waitFor({ state: "detached" });
    const shown = await buttons(page).count();
    expect(shown).toBeGreaterThan(200);
    expect(shown).toBeLessThanOrEqual(320);
    await page.getByText(/Search to find \d+ more/).waitFor();
    await screenshots(page, "chat-emoji-picker");

    // Type a name, Enter picks the best match.
    await page.getByLabel("Search emoji").fill("tada");
    expect(await buttons(page).first().getAttribute("aria-label")).toBe("tada");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => (window as any).picked.at(-1))).toEqual({ name: "tada", code: "1f389", type: "unicode_emoji" });

    // Arrow keys move in the grid (8 columns); Up from the first row returns to the search.
    await page.getByLabel("Search emoji").fill("");
    await page.keyboard.press("ArrowDown");
    expect(await focusedLabel(page)).toBe("+1");
    await page.keyboard.press("ArrowRight");
    expect(await focusedLabel(page)).toBe("tada");
    await page.keyboard.press("ArrowDown");
    const below = await buttons(page).nth(9).getAttribute("aria-label");
    expect(await focusedLabel(page)).toBe(below);
    await page.keyboard.press("Enter");
    expect((await page.evaluate(() => (window as any).picked.at(-1))).name).toBe(below);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await focusedLabel(page)).toBe("Search emoji");

    // Custom emoji: found by name, drawn from the page's own origin.
    await page.getByLabel("Search emoji").fill("party_parrot");
    expect(await buttons(page).count()).toBe(1);
    expect(await buttons(page).first().locator("img").getAttribute("src")).toBe("/user_avatars/2/emoji/images/7.png");
    await page.getByLabel("Search emoji").fill("no such emoji at all");
    await page.getByText("No emoji match.").waitFor();

    // Escape closes.
    await page.getByLabel("Search emoji").focus();
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => (window as any).closes)).toBe(1);
    expect(await picker(page).count()).toBe(0);

    // A click outside closes; a click inside does not. The data is not fetched again.
    await page.evaluate(() => (window as any).openPicker());
    await page.getByLabel("Search emoji").click();
    expect(await page.evaluate(() => (window as any).closes)).toBe(1);
    await page.mouse.click(1200, 700);
    expect(await page.evaluate(() => (window as any).closes)).toBe(2);
    expect(requests.filter((url) => url.includes("/static/generated/emoji/emoji_api"))).toHaveLength(1);

    expect(errors).toEqual([]);
    await context.close();
  }, 60000);

  test("in dark mode on a phone it fits the screen", async () => {
    const { page, context, errors, release } = await openHarness({ dark: true, phone: true });
    release();
    await page.evaluate(() => (window as any).openPicker());
    await page.getByText(/Search to find \d+ more/).waitFor();
    const box = await picker(page).boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    // No keyboard popping up over the grid on touch: the panel, not the field, has the focus.
    expect(await page.evaluate(() => document.activeElement?.classList.contains("emoji-picker"))).toBe(true);
    const background = await picker(page).evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).toBe("rgb(29, 32, 39)");
    await screenshots(page, "chat-emoji-picker-dark");
    expect(errors).toEqual([]);
    await context.close();
  }, 60000);
});

describeInBrowser("emoji in messages and glyphs", () => {
  test("the server's emoji spans show the character, keeping their labels; :zulip: becomes a badge", async () => {
    const { page, context, errors } = await openHarness();
    const html = renderMessage(":smile: :heart: :hash: :green_tick: :zulip:", testContext()).html;
    await page.evaluate((content) => (window as any).showMessage(content), html);
    const spans = page.locator("#message span.emoji");
    expect(await spans.nth(0).textContent()).toBe("🙂");
    expect(await spans.nth(0).getAttribute("aria-label")).toBe("smile");
    expect(await spans.nth(0).getAttribute("title")).toBe("smile");
    expect(await spans.nth(1).textContent()).toBe("❤\uFE0F");
    expect(await spans.nth(2).textContent()).toBe("#\uFE0F\u20E3");
    // Custom emoji images stay as the server wrote them.
    expect(await page.locator("#message img.emoji").getAttribute("src")).toBe("/user_avatars/2/emoji/images/101.png");
    expect(await page.locator('#message [aria-label="zulip"]').textContent()).toBe("Z");
    expect(await page.locator('#message img[src$="zulip.png"]').count()).toBe(0);
    // Showing twice changes nothing.
    await page.evaluate(() => (window as any).showMessage(document.getElementById("message")!.innerHTML));
    expect(await spans.nth(0).textContent()).toBe("🙂");

    await page.evaluate(() => (window as any).showGlyphs());
    const glyphs = page.locator("#glyphs");
    expect(await glyphs.locator('[aria-label="tada"]').textContent()).toBe("🎉");
    expect(await glyphs.locator("img").getAttribute("src")).toBe("/user_avatars/2/emoji/images/7.png");
    const imageHeight = await glyphs.locator("img").evaluate((image: HTMLImageElement) => image.getBoundingClientRect().height);
    expect(imageHeight).toBeGreaterThan(15);
    expect(imageHeight).toBeLessThan(25);
    expect(await glyphs.locator('[aria-label="zulip"]').textContent()).toBe("Z");
    // The custom image loads from the page's origin: nothing failed.
    expect(errors).toEqual([]);
    await context.close();
  }, 60000);
});
