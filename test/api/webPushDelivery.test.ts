import { afterAll, beforeAll, describe, expect, test } from "bun:test";
// @ts-expect-error http_ece (web-push's own encryption library) ships no types.
import ece from "http_ece";
import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import { createChannel, queryServer, uniqueName } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

/**
 * Web Push delivery end to end: a real RFC 8030 receiver on loopback plays the push service,
 * and decrypts what it gets (RFC 8291 aes128gcm) with the browser's own private key, as the
 * browser would; the VAPID signature names the server's public key.
 */

interface Received {
  path: string;
  headers: Headers;
  data: any;
}

let org: Org;
let receiver: ReturnType<typeof Bun.serve>;
const received: Received[] = [];
/** Status the receiver answers per path (201 otherwise). */
const statusFor = new Map<string, number>();
const browsers = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
/** Paths whose first request is held (not answered) until the promise settles: a push under way. */
const holdFirst = new Map<string, Promise<void>>();
/** Paths whose next request is answered 503 (busy), once. */
const failOnce = new Set<string>();
/** Every request's path, answered or not. */
const arrivals: string[] = [];

beforeAll(async () => {
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const browser = browsers.get(path);
      const body = Buffer.from(await request.arrayBuffer());
      arrivals.push(path);
      const hold = holdFirst.get(path);
      if (hold) {
        holdFirst.delete(path);
        await hold;
        return new Response(null, { status: 503 });
      }
      const status = failOnce.delete(path) ? 503 : (statusFor.get(path) ?? 201);
      if (status === 201 && browser) {
        const plain = ece.decrypt(body, { version: "aes128gcm", privateKey: browser.ecdh, authSecret: browser.auth.toString("base64url") });
        received.push({ path, headers: request.headers, data: JSON.parse(plain.toString()) });
      }
      return new Response(null, { status });
    },
  });
  org = await seedOrg({ env: { PARLEY_WEBHOOK_ALLOW_LOOPBACK: "1", PARLEY_OUTBOX_RETRY_BASE_SECONDS: "1", PARLEY_OUTBOX_RETRY_MAX_SECONDS: "1", PARLEY_OUTBOX_SWEEP_SECONDS: "0" } });
}, 60_000);
afterAll(() => {
  receiver.stop(true);
  return org.server.dispose();
});

let counter = 0;
/** Subscribes a new "browser" of `person` at a receiver path; returns the path. */
async function subscribeBrowser(person: Person): Promise<string> {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const path = `/push/${person.id}-${++counter}`;
  browsers.set(path, { ecdh, auth });
  ok(await person.api.post("/users/me/web_push_subscriptions", { endpoint: `http://127.0.0.1:${receiver.port}${path}`, p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") }));
  return path;
}

async function waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/** Waits until the message's push item has been through the outbox (who to push was decided). */
const fannedOut = (messageId: number) =>
  waitFor(() => queryServer<{ payload: unknown }>(org.server, "SELECT payload FROM outbox WHERE kind = 'message_notifications' AND sent_at IS NOT NULL").some((row) => JSON.parse(typeof row.payload === "string" ? row.payload : JSON.stringify(row.payload)).message_id === messageId), `message ${messageId} to be fanned out`);
const pushesTo = (path: string) => received.filter((push) => push.path === path);
const setSettings = async (person: Person, settings: Record<string, unknown>) => ok(await person.api.patch("/settings", settings));

describe("what is pushed", () => {
  test("a direct message reaches the recipient's browser within 5 s, encrypted to it and signed by the server", async () => {
    const path = await subscribeBrowser(org.member2);
    const started = Date.now();
    const { id } = await sendOk(org.member, directMessage([org.member2.id], "are you **there**?"));
    const [push] = await waitFor(() => pushesTo(path).length > 0 && pushesTo(path), "the push");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(push.data).toEqual({
      kind: "message",
      message_id: id,
      title: "Mel Member",
      body: "are you there?",
      conversation: { kind: "dm", user_ids: [org.member.id, org.member2.id].sort((a, b) => a - b) },
      tag: expect.stringMatching(/^dm:\d+$/),
      reason: "direct_message",
      icon: null,
    });
    expect(push.headers.get("content-encoding")).toBe("aes128gcm");
    expect(push.headers.get("urgency")).toBe("high");
    expect(Number(push.headers.get("ttl"))).toBeGreaterThan(0);
    const publicKey = ok(await org.anon.get("/server_settings")).web_push_public_key;
    expect(push.headers.get("authorization")).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    // The token is signed with the server's key (ES256), for this push service, for at most a day (RFC 8292).
    const token = /t=([\w.-]+)/.exec(push.headers.get("authorization")!)![1];
    const [header, claims, signature] = token.split(".");
    const key = Buffer.from(publicKey, "base64url");
    const verifier = createPublicKey({ key: { kty: "EC", crv: "P-256", x: key.subarray(1, 33).toString("base64url"), y: key.subarray(33).toString("base64url") }, format: "jwk" });
    expect(verify("sha256", Buffer.from(`${header}.${claims}`), { key: verifier, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"))).toBe(true);
    const { aud, exp } = JSON.parse(Buffer.from(claims, "base64url").toString());
    expect(aud).toBe(`http://127.0.0.1:${receiver.port}`);
    expect(exp).toBeGreaterThan(Date.now() / 1000);
    expect(exp).toBeLessThanOrEqual(Date.now() / 1000 + 24 * 3600);
    // The device list shows the delivery.
    const [device] = ok(await org.member2.api.get("/users/me/web_push_subscriptions")).subscriptions.filter((row: any) => row.endpoint.endsWith(path));
    expect(device.last_delivered_at).toEqual(expect.any(Number));
  });

  test("a mention in a channel is pushed; a plain channel message is not; the sender is never pushed", async () => {
    const memberPath = await subscribeBrowser(org.member);
    const path = await subscribeBrowser(org.member2);
    const channel = uniqueName("push");
    const channelId = await createChannel(org, org.member, { principals: [org.member.id, org.member2.id] }, channel);
    const plain = await sendOk(org.member, channelMessage(channelId, "lunch", "anyone hungry?"));
    // Who is pushed is decided when the message's item is delivered, moments after the send;
    // the mention below makes member2 follow the topic, so it waits until that has happened.
    await fannedOut(plain.id);
    const mention = await sendOk(org.member, channelMessage(channelId, "lunch", "@**Max Member** lunch?"));
    const [push] = await waitFor(() => pushesTo(path).length > 0 && pushesTo(path), "the mention's push");
    await Bun.sleep(300);
    expect(pushesTo(path).map((one) => one.data.message_id)).toEqual([mention.id]);
    expect(push.data).toMatchObject({ title: `#${channel} › lunch: Mel Member`, reason: "mentioned", conversation: { kind: "channel", channel_id: channelId, topic: "lunch" } });
    expect(plain.id).toBeLessThan(mention.id);
    expect(pushesTo(memberPath)).toEqual([]);
  });

  test("settings and muting turn it off: no offline pushes, a muted sender", async () => {
    const path = await subscribeBrowser(org.member2);
    await setSettings(org.member2, { enable_offline_push_notifications: false });
    try {
      await fannedOut((await sendOk(org.member, directMessage([org.member2.id], "quiet please"))).id);
    } finally {
      await setSettings(org.member2, { enable_offline_push_notifications: true });
    }
    ok(await org.member2.api.post(`/users/me/muted_users/${org.owner.id}`));
    try {
      await fannedOut((await sendOk(org.owner, directMessage([org.member2.id], "from someone muted"))).id);
    } finally {
      ok(await org.member2.api.delete(`/users/me/muted_users/${org.owner.id}`));
    }
    // A message sent after both is pushed: the two before it had their turn first and were not.
    const last = await sendOk(org.member, directMessage([org.member2.id], "now you hear me"));
    await waitFor(() => pushesTo(path).length > 0, "the last push");
    await Bun.sleep(300);
    expect(pushesTo(path).map((one) => one.data.message_id)).toEqual([last.id]);
  });

  test("a pushed message read anywhere is withdrawn from every device; reading one never pushed withdraws nothing", async () => {
    const phone = await subscribeBrowser(org.moderator);
    const laptop = await subscribeBrowser(org.moderator);
    const { id } = await sendOk(org.member, directMessage([org.moderator.id], "call me"));
    await waitFor(() => pushesTo(phone).length === 1 && pushesTo(laptop).length === 1, "the push to both devices");
    // Still unread: the flags the API shows are the usual ones.
    const [before] = ok(await org.moderator.api.get("/messages", { anchor: id, num_before: 0, num_after: 0, narrow: JSON.stringify([]) })).messages;
    expect(before.flags).toEqual([]);
    ok(await org.moderator.api.post("/messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "read" }));
    await waitFor(() => pushesTo(phone).length === 2 && pushesTo(laptop).length === 2, "the withdrawal on both devices");
    expect(pushesTo(phone)[1].data).toEqual({ kind: "remove", message_ids: [id] });
    expect(pushesTo(laptop)[1].data).toEqual({ kind: "remove", message_ids: [id] });
    expect(pushesTo(laptop)[1].headers.get("urgency")).toBe("normal");
    // Unread and read again: it is not shown any more, so nothing is withdrawn twice.
    ok(await org.moderator.api.post("/messages/flags", { messages: JSON.stringify([id]), op: "remove", flag: "read" }));
    ok(await org.moderator.api.post("/messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "read" }));
    const later = await sendOk(org.member, directMessage([org.moderator.id], "and this"));
    await waitFor(() => pushesTo(phone).length === 3, "the next push");
    expect(pushesTo(phone).map((push) => push.data.kind === "message" ? push.data.message_id : "remove")).toEqual([id, "remove", later.id]);
  });

  test("where the organization keeps message content out of notifications, a push says who and where only", async () => {
    const path = await subscribeBrowser(org.member2);
    ok(await org.owner.api.patch("/realm", { message_content_allowed_in_email_notifications: false }));
    try {
      await sendOk(org.member, directMessage([org.member2.id], "the secret plan"));
      const [push] = await waitFor(() => pushesTo(path).length > 0 && pushesTo(path), "the push");
      expect(push.data).toMatchObject({ title: "Mel Member", body: "" });
      expect(JSON.stringify(push.data)).not.toContain("secret");
    } finally {
      ok(await org.owner.api.patch("/realm", { message_content_allowed_in_email_notifications: true }));
    }
  });

  test("one push to many browsers at one push service: one item; a browser the service could not take now gets it after a retry, the others at once, each once", async () => {
    const people = [org.member2, org.guest, org.moderator];
    const paths = await Promise.all(people.map((person) => subscribeBrowser(person)));
    failOnce.add(paths[1]);
    const itemsBefore = queryServer(org.server, "SELECT id FROM outbox WHERE kind = 'web_push'").length;
    const channel = uniqueName("many");
    const channelId = await createChannel(org, org.member, { principals: [org.member.id, ...people.map((person) => person.id)] }, channel);
    const { id } = await sendOk(org.member, channelMessage(channelId, "all", "@**all** meeting now"));
    await waitFor(() => paths.every((path) => pushesTo(path).some((push) => push.data.message_id === id)), "a push to every browser", 10_000);
    await Bun.sleep(1500);
    for (const path of paths) expect(pushesTo(path).filter((push) => push.data.message_id === id)).toHaveLength(1);
    expect(arrivals.filter((path) => path === paths[1]).length).toBeGreaterThanOrEqual(2);
    // The push went in one item, and the browser that was busy in one more.
    expect(queryServer(org.server, "SELECT id FROM outbox WHERE kind = 'web_push'").length - itemsBefore).toBe(2);
  });

  test("an endpoint the push service says is gone (410) is removed, and never tried again", async () => {
    const path = await subscribeBrowser(org.guest);
    statusFor.set(path, 410);
    const endpoint = `http://127.0.0.1:${receiver.port}${path}`;
    await sendOk(org.member, directMessage([org.guest.id], "hello?"));
    await waitFor(() => queryServer(org.server, "SELECT id FROM web_push_subscriptions WHERE endpoint = ?", endpoint).length === 0, "the subscription to be removed");
    expect(ok(await org.guest.api.get("/users/me/web_push_subscriptions")).subscriptions.map((row: any) => row.endpoint)).not.toContain(endpoint);
  });
});

describe("durability", () => {
  test("killed (-9) while a push is under way: after the restart it is delivered once, and who to push is not decided again", async () => {
    const path = await subscribeBrowser(org.member2);
    let release!: () => void;
    holdFirst.set(path, new Promise<void>((resolve) => (release = resolve)));
    const { id } = await sendOk(org.member, directMessage([org.member2.id], "still there after a crash?"));
    await waitFor(() => arrivals.includes(path), "the first try, held");
    await org.server.restart("SIGKILL");
    release();
    const [push] = await waitFor(() => pushesTo(path).length > 0 && pushesTo(path), "the push after the restart", 15_000);
    expect(push.data).toMatchObject({ kind: "message", message_id: id });
    await Bun.sleep(1500);
    expect(pushesTo(path)).toHaveLength(1);
    expect(arrivals.filter((one) => one === path)).toHaveLength(2);
    // The decision was committed before the crash: one push item for this browser, not two.
    const [subscription] = queryServer<{ id: number }>(org.server, "SELECT id FROM web_push_subscriptions WHERE endpoint LIKE ?", `%${path}`);
    const items = queryServer<{ payload: unknown }>(org.server, "SELECT payload FROM outbox WHERE kind = 'web_push'").filter((row) => (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload).subscription_ids.includes(subscription.id));
    expect(items).toHaveLength(1);
  }, 30_000);
});
