import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createECDH, randomBytes } from "node:crypto";
import { queryServer } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";

/** Web Push subscriptions (docs/API.md): the VAPID key, and each person's browsers. */

let org: Org;
beforeAll(async () => {
  org = await seedOrg({ env: { PARLEY_WEBHOOK_ALLOW_LOOPBACK: "1" } });
}, 60_000);
afterAll(() => org.server.dispose());

/** A browser's subscription: a fresh P-256 key pair and auth secret, as PushSubscription gives them. */
export function browserKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.getPublicKey().toString("base64url"), authText: auth.toString("base64url") };
}

let counter = 0;
const endpointFor = (name = "device") => `https://push.example.com/${name}-${++counter}`;
const subscribe = (person: Person, fields: Record<string, unknown>) => person.api.post("/users/me/web_push_subscriptions", fields);
const rows = () => queryServer<{ user_id: number; endpoint: string }>(org.server, "SELECT user_id, endpoint FROM web_push_subscriptions ORDER BY id");

describe("GET /server_settings", () => {
  test("gives the VAPID public key: 65 bytes of an uncompressed P-256 point, base64url, the same after a restart", async () => {
    const settings = ok(await org.anon.get("/server_settings"));
    const key = Buffer.from(settings.web_push_public_key, "base64url");
    expect(settings.web_push_public_key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect(settings.push_notifications_enabled).toBe(false);
    await org.server.stop();
    await org.server.startAgainOnSamePort();
    expect(ok(await org.anon.get("/server_settings")).web_push_public_key).toBe(settings.web_push_public_key);
  });
});

describe("POST, GET and DELETE /users/me/web_push_subscriptions", () => {
  test("a member subscribes a browser, sees it listed, and removes it", async () => {
    const keys = browserKeys();
    const endpoint = endpointFor();
    const { id } = ok(await subscribe(org.member, { endpoint, p256dh: keys.p256dh, auth: keys.authText }));
    expect(Number.isInteger(id)).toBe(true);
    const listed = ok(await org.member.api.get("/users/me/web_push_subscriptions")).subscriptions;
    expect(listed).toEqual([{ id, endpoint, created_at: expect.any(Number), last_delivered_at: null }]);
    // Others see only their own.
    expect(ok(await org.member2.api.get("/users/me/web_push_subscriptions")).subscriptions.find((row: any) => row.endpoint === endpoint)).toBeUndefined();
    // Subscribing again is harmless: still one.
    expect(ok(await subscribe(org.member, { endpoint, p256dh: keys.p256dh, auth: keys.authText })).id).toBe(id);
    expect(rows().filter((row) => row.endpoint === endpoint)).toHaveLength(1);
    ok(await org.member.api.delete("/users/me/web_push_subscriptions", { endpoint }));
    expect(rows().filter((row) => row.endpoint === endpoint)).toEqual([]);
  });

  test("an endpoint someone else had becomes the new subscriber's (one browser, another account)", async () => {
    const keys = browserKeys();
    const endpoint = endpointFor("shared");
    ok(await subscribe(org.member, { endpoint, p256dh: keys.p256dh, auth: keys.authText }));
    ok(await subscribe(org.member2, { endpoint, p256dh: keys.p256dh, auth: keys.authText }));
    expect(rows().filter((row) => row.endpoint === endpoint)).toEqual([{ user_id: org.member2.id, endpoint }]);
    // The first can no longer remove it.
    expectError(await org.member.api.delete("/users/me/web_push_subscriptions", { endpoint }), "BAD_REQUEST");
    ok(await org.member2.api.delete("/users/me/web_push_subscriptions", { endpoint }));
  });

  test("bad input is refused with a clear error and changes nothing", async () => {
    const keys = browserKeys();
    const before = rows();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ endpoint: "not a url", p256dh: keys.p256dh, auth: keys.authText }, /not a valid URL/],
      [{ endpoint: "ftp://push.example.com/x", p256dh: keys.p256dh, auth: keys.authText }, /http or https/],
      [{ endpoint: `https://push.example.com/${"x".repeat(2100)}`, p256dh: keys.p256dh, auth: keys.authText }, /longer than 2048/],
      [{ endpoint: `${org.server.url}/api/v1/users/me`, p256dh: keys.p256dh, auth: keys.authText }, /this server itself/],
      [{ endpoint: endpointFor(), p256dh: "not base64!", auth: keys.authText }, /p256dh/],
      [{ endpoint: endpointFor(), p256dh: randomBytes(65).toString("base64url"), auth: keys.authText }, /p256dh/],
      [{ endpoint: endpointFor(), p256dh: keys.p256dh, auth: randomBytes(8).toString("base64url") }, /auth/],
      [{ endpoint: endpointFor(), p256dh: keys.p256dh }, /auth/],
      [{ p256dh: keys.p256dh, auth: keys.authText }, /endpoint/],
    ];
    for (const [fields, message] of cases) {
      const refused = await subscribe(org.member, fields);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toMatch(message);
    }
    expectError(await org.member.api.delete("/users/me/web_push_subscriptions", { endpoint: endpointFor("never") }), "BAD_REQUEST");
    expectError(await org.member.api.delete("/users/me/web_push_subscriptions", {}), "BAD_REQUEST");
    expect(rows()).toEqual(before);
  });

  test("bots and requests without credentials are refused", async () => {
    const keys = browserKeys();
    expectError(await subscribe(org.bot, { endpoint: endpointFor(), p256dh: keys.p256dh, auth: keys.authText }), "BAD_REQUEST");
    const anonymous = await org.anon.post("/users/me/web_push_subscriptions", { endpoint: endpointFor(), p256dh: keys.p256dh, auth: keys.authText });
    expect(anonymous.status).toBe(401);
    expect((await org.anon.get("/users/me/web_push_subscriptions")).status).toBe(401);
  });
});
