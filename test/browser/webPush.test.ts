import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, CDPSession, Page, Worker } from "playwright-core";
import { SCREENSHOTS, collectPageErrors, describeInBrowser, eventually, launchBrowser, newContext, signIn } from "../helpers/browser";
import { ok, seedOrg, type Org } from "../helpers/seed";

/**
 * The browser half of web push (issue 27), in real Chromium: the chat is an installable app
 * (manifest, icons, favicon, the head's tags), its service worker registers at /sw.js, shows
 * what the server pushes (delivered here through the DevTools protocol, as a push service
 * would), closes it again on a "remove", opens the conversation on a click, and the settings
 * list the person's devices and remove them. Headless Chromium has no push service (and none at
 * all in its incognito-like contexts), so subscribing itself is checked only for how it fails.
 */

let org: Org;
let browser: Browser;
/** Stands in for a push service: the endpoints the test's subscriptions name. */
let receiver: ReturnType<typeof Bun.serve>;
let generalId: number;

/** What Chromium logs when a page asks for a push subscription in an incognito context: expected where the test asks. */
const INCOGNITO_PUSH = /does not support the Push API in incognito mode/;

beforeAll(async () => {
  receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(null, { status: 201 }) });
  // Push endpoints are held to the outgoing-request rule; the receiver is on loopback.
  org = await seedOrg({ env: { PARLEY_WEBHOOK_ALLOW_LOOPBACK: "1" } });
  browser = await launchBrowser();
  ok(await org.owner.api.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "general" }]), principals: JSON.stringify([org.owner.id, org.member.id, org.member2.id]) }));
  generalId = ok(await org.member.api.get("/get_stream_id", { stream: "general" })).stream_id;
});
afterAll(async () => {
  await browser?.close();
  await org?.server.stop();
  receiver?.stop(true);
});

interface Opened {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function openAsMel(options: { phone?: boolean; dark?: boolean; path?: string; notifications?: boolean } = {}): Promise<Opened> {
  const context = await newContext(browser, options);
  if (options.notifications !== false) await context.grantPermissions(["notifications"], { origin: org.server.url });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await signIn(page, org.server.url, org.member.email, org.member.password);
  // The chat registers the worker; a subscription can only be there once it has.
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (options.path) await page.goto(`${org.server.url}${options.path}`);
  return { context, page, errors };
}

/** The service worker of the context, once it runs. */
async function serviceWorkerOf(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
}

/** Delivers a push to the registration at "/", as the browser does with what a push service sends. */
async function pusher(context: BrowserContext, page: Page): Promise<(payload: unknown) => Promise<void>> {
  const cdp: CDPSession = await context.newCDPSession(page);
  let registrationId: string | undefined;
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => {
    for (const registration of event.registrations) if (registration.scopeURL === `${org.server.url}/` && !registration.isDeleted) registrationId = registration.registrationId;
  });
  await cdp.send("ServiceWorker.enable");
  await eventually(async () => registrationId !== undefined, true);
  return async (payload) => {
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: org.server.url, registrationId: registrationId!, data: typeof payload === "string" ? payload : JSON.stringify(payload) });
  };
}

interface Shown {
  title: string;
  body: string;
  tag: string;
  icon: string;
  data: { message_id: number; conversation: unknown } | null;
}

/** The notifications the worker's registration shows now, read in the worker itself. */
const shownBy = (worker: Worker): Promise<Shown[]> =>
  worker.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration };
    return (await scope.registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, icon: n.icon, data: n.data }));
  });

const shownIds = async (worker: Worker) => (await shownBy(worker)).map((n) => n.data?.message_id).sort((a, b) => (a ?? 0) - (b ?? 0));

/**
 * A click on the notification of this message. Headless Chromium shows no notification to
 * click, so the worker is sent the event a click makes, with the notification it names; an
 * event the page made is not trusted, so its waitUntil throws after the handler has started
 * the work, which is all this needs.
 */
const click = (worker: Worker, messageId: number) =>
  worker.evaluate(async (id) => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; NotificationEvent: new (type: string, init: { notification: Notification }) => Event; dispatchEvent(event: Event): boolean };
    const notification = (await scope.registration.getNotifications()).find((n) => n.data?.message_id === id);
    if (!notification) throw new Error(`No notification for message ${id}`);
    scope.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification }));
  }, messageId);

const unexpected = (errors: string[]) => errors.filter((error) => !INCOGNITO_PUSH.test(error));

/** A PNG's width and height, from its header. */
function pngSize(bytes: Uint8Array) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Screenshots at 1366 and 390 px in the scheme the context has, kept with the other pages' (test/artifacts/). */
async function shots(page: Page, name: string, scheme: "light" | "dark", atPhone?: () => Promise<void>) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-1366-${scheme}.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await atPhone?.();
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-390-${scheme}.png`), fullPage: true });
}

/** A subscription's keys as a browser makes them: a P-256 public key and a 16-byte secret, base64url. */
async function browserKeys() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const p256dh = Buffer.from(await crypto.subtle.exportKey("raw", pair.publicKey)).toString("base64url");
  return { p256dh, auth: Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url") };
}

const sendToGeneral = async (topic: string, content: string): Promise<number> => ok(await org.member2.api.post("/messages", { type: "stream", to: "general", topic, content })).id;
const sendToMel = async (content: string): Promise<number> => ok(await org.member2.api.post("/messages", { type: "private", to: JSON.stringify([org.member.id]), content })).id;

describeInBrowser("the installable web app and its notifications", () => {
  test("the manifest names the organization, opens / on its own, and its icons, the favicon and iOS's icon are served", async () => {
    const response = await fetch(`${org.server.url}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    const manifest = await response.json();
    expect(manifest).toMatchObject({ id: "/", name: "Test Org", short_name: "Test Org", start_url: "/", scope: "/", display: "standalone", theme_color: "#f6f7f9", background_color: "#f6f7f9" });
    expect(manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
    for (const icon of manifest.icons) {
      expect(icon.src).toMatch(/^\/static\/web\/icons\/parley-[\w-]+\.png$/);
      const file = await fetch(`${org.server.url}${icon.src}`);
      expect(file.headers.get("content-type")).toBe("image/png");
      const size = Number(icon.sizes.split("x")[0]);
      expect(pngSize(new Uint8Array(await file.arrayBuffer()))).toEqual({ width: size, height: size });
    }
    const apple = await fetch(`${org.server.url}/apple-touch-icon.png`);
    expect(apple.headers.get("content-type")).toBe("image/png");
    expect(pngSize(new Uint8Array(await apple.arrayBuffer()))).toEqual({ width: 180, height: 180 });
    const favicon = await fetch(`${org.server.url}/favicon.svg`);
    expect(favicon.headers.get("content-type")).toBe("image/svg+xml");
    expect(await favicon.text()).toStartWith("<svg");
  });

  test("the chat's page links them, Chromium reads the manifest without complaint, and the icons load in the page", async () => {
    const { context, page, errors } = await openAsMel();
    await page.locator(".chat-sidebar").waitFor();
    const head = await page.evaluate(() => ({
      manifest: document.querySelector('link[rel="manifest"]')?.getAttribute("href"),
      icon: document.querySelector('link[rel="icon"]')?.getAttribute("href"),
      apple: document.querySelector('link[rel="apple-touch-icon"]')?.getAttribute("href"),
      capable: document.querySelector('meta[name="apple-mobile-web-app-capable"]')?.getAttribute("content"),
      themes: [...document.querySelectorAll('meta[name="theme-color"]')].map((meta) => meta.getAttribute("content")),
    }));
    expect(head).toEqual({ manifest: "/manifest.webmanifest", icon: "/favicon.svg", apple: "/apple-touch-icon.png", capable: "yes", themes: ["#f6f7f9", "#15171c"] });
    const cdp = await context.newCDPSession(page);
    const read = await cdp.send("Page.getAppManifest");
    expect(read.url).toBe(`${org.server.url}/manifest.webmanifest`);
    expect(read.errors).toEqual([]);
    // What keeps Chromium from offering to install it here is only the test's own window (no HTTPS on 127.0.0.1 is fine).
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors.map((error) => error.errorId).filter((id) => !["in-incognito", "not-from-secure-origin"].includes(id))).toEqual([]);
    const loaded = await page.evaluate(async () => {
      const manifest = await (await fetch("/manifest.webmanifest")).json();
      const sources: string[] = [...manifest.icons.map((icon: { src: string }) => icon.src), "/apple-touch-icon.png", "/favicon.svg"];
      return Promise.all(
        sources.map(
          (src) =>
            new Promise<string>((resolve) => {
              const image = new Image();
              image.onload = () => resolve(`${src} ${image.naturalWidth}`);
              image.onerror = () => resolve(`${src} failed`);
              image.src = src;
            }),
        ),
      );
    });
    expect(loaded.filter((line) => line.endsWith("failed"))).toEqual([]);
    expect(loaded.some((line) => line.endsWith(" 512"))).toBe(true);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  test("the service worker registers from the chat at /sw.js for the whole site, activates, and takes the page over", async () => {
    const script = await fetch(`${org.server.url}/sw.js`);
    expect(script.headers.get("content-type")).toStartWith("text/javascript");
    expect(script.headers.get("cache-control")).toBe("no-cache");
    const { context, page, errors } = await openAsMel();
    await page.locator(".chat-sidebar").waitFor();
    const registration = await page.evaluate(async () => {
      const ready = await navigator.serviceWorker.ready;
      return { scope: ready.scope, script: ready.active?.scriptURL, state: ready.active?.state };
    });
    expect(registration).toEqual({ scope: `${org.server.url}/`, script: `${org.server.url}/sw.js`, state: "activated" });
    // clients.claim(): the page that registered it is controlled without a reload.
    await eventually(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), `${org.server.url}/sw.js`);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  test("a pushed message is shown while no Parley page is in front, not while one is; a second push of it is not shown twice; 'remove' closes them", async () => {
    const { context, page, errors } = await openAsMel();
    await page.locator(".chat-sidebar").waitFor();
    const worker = await serviceWorkerOf(context);
    const push = await pusher(context, page);
    const lunch = await sendToGeneral("lunch", "Pizza at noon?");
    const message = {
      kind: "message",
      message_id: lunch,
      title: "#general › lunch: Max Member",
      body: "Pizza at noon?",
      conversation: { kind: "channel", channel_id: generalId, topic: "lunch" },
      tag: `channel:${generalId}:lunch`,
      realm_name: "Test Org",
      icon: null,
    };

    // The chat is in front: it shows the message itself.
    await push(message);
    await Bun.sleep(700);
    expect(await shownBy(worker)).toEqual([]);

    // Nothing of Parley open (the page went elsewhere): the worker shows it, with Parley's icon.
    await page.goto("about:blank");
    await push(message);
    await eventually(async () => (await shownBy(worker)).length, 1);
    const [shown] = await shownBy(worker);
    expect(shown).toMatchObject({ title: "#general › lunch: Max Member", body: "Pizza at noon?", tag: `channel:${generalId}:lunch`, data: { message_id: lunch, conversation: message.conversation } });
    expect(shown.icon).toMatch(new RegExp(`^${org.server.url}/static/web/icons/parley-192-\\w+\\.png$`));

    // A DM, with the icon the server names; its content hidden.
    const dm = await sendToMel("Are you there?");
    await push({ kind: "message", message_id: dm, title: "Max Member", body: "", conversation: { kind: "dm", user_ids: [org.member.id, org.member2.id] }, tag: "dm", realm_name: "Test Org", icon: "/apple-touch-icon.png" });
    await eventually(() => shownIds(worker), [lunch, dm]);
    expect((await shownBy(worker)).find((n) => n.data?.message_id === dm)).toMatchObject({ title: "Max Member", body: "", icon: `${org.server.url}/apple-touch-icon.png` });

    // The page showed this message already (as behaviour/notifications.ts does while this browser gets pushes): not again.
    const third = await sendToGeneral("plans", "Friday?");
    await worker.evaluate(
      ([id, channelId]) => (self as unknown as { registration: ServiceWorkerRegistration }).registration.showNotification("Max Member in #general › plans", { tag: `parley-${id}`, data: { message_id: id, conversation: { kind: "channel", channel_id: channelId, topic: "plans" } } }),
      [third, generalId],
    );
    await push({ ...message, message_id: third, title: "#general › plans: Max Member", tag: `channel:${generalId}:plans`, conversation: { kind: "channel", channel_id: generalId, topic: "plans" } });
    await Bun.sleep(500);
    expect((await shownBy(worker)).filter((n) => n.data?.message_id === third).map((n) => n.title)).toEqual(["Max Member in #general › plans"]);

    // What the worker does not understand changes nothing.
    for (const nonsense of ["not json", { kind: "message" }, { kind: "shout", message_ids: [lunch] }, { kind: "remove", message_ids: ["x"] }]) await push(nonsense);
    await Bun.sleep(500);
    expect(await shownIds(worker)).toEqual([lunch, dm, third]);

    // Read elsewhere: gone here.
    await push({ kind: "remove", message_ids: [lunch, third, 999999] });
    await eventually(() => shownIds(worker), [dm]);
    await push({ kind: "remove", message_ids: [dm] });
    await eventually(() => shownIds(worker), []);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  test("a click opens the conversation: in the open chat without reloading it, else by taking another Parley page there", async () => {
    const { context, page, errors } = await openAsMel();
    await page.locator(".chat-sidebar").waitFor();
    const worker = await serviceWorkerOf(context);
    const push = await pusher(context, page);
    const dm = await sendToMel("Lunch later?");
    const lunch = await sendToGeneral("lunch", "Table for four at noon");
    await page.goto("about:blank");
    await push({ kind: "message", message_id: dm, title: "Max Member", body: "Lunch later?", conversation: { kind: "dm", user_ids: [org.member.id, org.member2.id] }, tag: "dm", realm_name: "Test Org", icon: null });
    await push({ kind: "message", message_id: lunch, title: "#general › lunch: Max Member", body: "Table for four at noon", conversation: { kind: "channel", channel_id: generalId, topic: "lunch" }, tag: "lunch", realm_name: "Test Org", icon: null });
    await eventually(() => shownIds(worker), [dm, lunch]);

    // The chat is open on the feed: it moves to the DM, with the names the worker does not know.
    await page.goto(`${org.server.url}/#feed`);
    await page.locator(".chat-sidebar").waitFor();
    const marker = await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await click(worker, dm);
    await page.waitForFunction((hash) => location.hash === hash, `#narrow/dm/${org.member2.id}-Max-Member/near/${dm}`);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(marker);
    await page.locator('[data-testid="message-list"] article[data-message-id]', { hasText: "Lunch later?" }).first().waitFor();
    await eventually(() => shownIds(worker), [lunch]);

    // Only the settings are open: that page is taken to the chat, at the message.
    await page.goto(`${org.server.url}/settings/notifications`);
    await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
    await click(worker, lunch);
    await page.waitForURL((url) => url.pathname === "/" && url.hash === `#narrow/channel/${generalId}-/topic/lunch/near/${lunch}`);
    await page.locator('[data-testid="message-list"] article[data-message-id]', { hasText: "Table for four at noon" }).first().waitFor();
    await eventually(() => shownIds(worker), []);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`the sidebar offers notifications, and says quietly when this browser gets no pushes (${scheme})`, async () => {
      const { context, page, errors } = await openAsMel({ dark: scheme === "dark", notifications: false });
      const ask = page.getByRole("button", { name: "Turn on notifications for direct messages and mentions" });
      await ask.waitFor();
      await shots(page, "chat-notifications-prompt", scheme, () => page.getByRole("button", { name: "Conversations" }).click());
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.reload();
      await context.grantPermissions(["notifications"], { origin: org.server.url });
      await ask.click();
      // Headless Chromium's windows cannot subscribe: the page says so, and its own notifications stay on.
      const note = page.getByRole("status").filter({ hasText: "Notifications show while Parley is open in a tab." });
      await note.waitFor();
      expect(await ask.count()).toBe(0);
      await shots(page, "chat-notifications-note", scheme, () => page.getByRole("button", { name: "Conversations" }).click());
      await page.getByRole("button", { name: "Dismiss" }).click();
      expect(await note.count()).toBe(0);
      expect(ok(await org.member.api.get("/users/me/web_push_subscriptions")).subscriptions.filter((s: { endpoint: string }) => !s.endpoint.startsWith(`http://127.0.0.1:${receiver.port}/`))).toEqual([]);
      expect(unexpected(errors)).toEqual([]);
      await context.close();
    });
  }

  test("settings › notifications lists the person's devices, marks this browser, and removes them", async () => {
    const endpoint = (name: string) => `http://127.0.0.1:${receiver.port}/push/${name}`;
    const phone = endpoint("phone");
    const laptop = endpoint("laptop");
    for (const device of [phone, laptop]) ok(await org.member.api.post("/users/me/web_push_subscriptions", { endpoint: device, ...(await browserKeys()) }));
    const listed = async () => ok(await org.member.api.get("/users/me/web_push_subscriptions")).subscriptions.map((s: { endpoint: string }) => s.endpoint).sort();

    for (const scheme of ["light", "dark"] as const) {
      const { context, page, errors } = await openAsMel({ dark: scheme === "dark", path: "/settings/notifications" });
      await page.getByRole("heading", { name: "Your devices" }).waitFor();
      const rows = page.locator("tr[data-device-id]");
      await eventually(() => rows.count(), 2);
      expect(await rows.first().textContent()).toContain(`127.0.0.1:${receiver.port}`);
      expect(await rows.first().textContent()).toContain("never");
      // No push service here, so no row is this browser's, and it can be turned on here.
      expect(await page.locator("tr .badge", { hasText: "this browser" }).count()).toBe(0);
      await page.getByRole("button", { name: "Turn on in this browser" }).waitFor();
      await page.getByRole("heading", { name: "iPhone and iPad" }).waitFor();
      await page.getByText("Share, then Add to Home Screen").waitFor();
      await page.getByText("Install app").waitFor();
      await shots(page, "settings-push-devices", scheme);
      expect(unexpected(errors)).toEqual([]);
      await context.close();
    }

    // This browser holds the laptop's subscription (its PushManager answers so): marked, listed first, and removing it ends it here too.
    const { context, page, errors } = await openAsMel({ notifications: true });
    await page.addInitScript((mine) => {
      const subscription = { endpoint: mine, unsubscribe: async () => ((window as unknown as { unsubscribed: boolean }).unsubscribed = true) };
      PushManager.prototype.getSubscription = async () => subscription as unknown as PushSubscription;
    }, laptop);
    await page.goto(`${org.server.url}/settings/notifications`);
    const mine = page.locator("tr[data-device-id]").first();
    await mine.getByText("this browser").waitFor();
    expect(await page.getByRole("button", { name: "Turn on in this browser" }).count()).toBe(0);
    await mine.getByRole("button", { name: "Remove" }).click();
    await page.locator(".toast", { hasText: "The device was removed" }).waitFor();
    await eventually(() => page.locator("tr[data-device-id]").count(), 1);
    expect(await listed()).toEqual([phone]);
    expect(await page.evaluate(() => (window as unknown as { unsubscribed?: boolean }).unsubscribed)).toBe(true);
    await page.locator("tr[data-device-id]").getByRole("button", { name: "Remove" }).click();
    await page.getByText("No device gets notifications while Parley is closed.").waitFor();
    expect(await listed()).toEqual([]);
    expect(unexpected(errors)).toEqual([]);
    await context.close();
  });
});
