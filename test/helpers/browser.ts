import { describe, expect } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/**
 * Real Chromium (Debian's, never a downloaded one) for the page tests, and the screenshots
 * they keep: test/artifacts/screenshots/<name>-desktop.png and -phone.png.
 */

export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium";
export const SCREENSHOTS = join(import.meta.dir, "..", "artifacts", "screenshots");

/** CI installs Chromium where it can (.ci/run); elsewhere the browser tests say so and skip. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) console.log(`Skipping the browser tests: ${CHROMIUM} is not installed.`);

/** describe(), skipped where there is no Chromium. */
export const describeInBrowser = describe.skipIf(!HAS_CHROMIUM);

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export function launchBrowser(): Promise<Browser> {
  // Without Chromium every test is skipped and nothing uses the browser.
  if (!HAS_CHROMIUM) return Promise.resolve(null as unknown as Browser);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--headless=new"] });
}

export async function newContext(browser: Browser, options: { phone?: boolean; dark?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: options.phone ? PHONE : DESKTOP,
    isMobile: options.phone ?? false,
    hasTouch: options.phone ?? false,
    colorScheme: options.dark ? "dark" : "light",
    reducedMotion: "reduce",
  });
}

/** Signs in through the sign-in form as a person would, and waits for where it lands. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/login")), page.getByRole("button", { name: "Sign in" }).click()]);
}

/** Screenshots of the page as it is, at desktop and at phone width (full page). */
export async function screenshots(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
    await page.setViewportSize(size);
    await page.waitForTimeout(50);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

/** Errors the page threw or logged: a page test fails on any. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

/** Waits until `read` gives `expected` (pages get there through events), else fails showing the last value. */
export async function eventually<T>(read: () => Promise<T>, expected: Awaited<T>, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!Bun.deepEquals(value, expected) && Date.now() < deadline) {
    await Bun.sleep(100);
    value = await read();
  }
  expect(value).toEqual(expected);
}
