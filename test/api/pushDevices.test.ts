import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queryServer } from "../helpers/channels";
import { type Org, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "../events/support";

/** Push device tokens (spec 4.14): APNs and FCM registrations, stored per user; nothing is pushed. */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const APNS = "/users/me/apns_device_token";
const FCM = "/users/me/android_gcm_reg_id";
const APP_ID = "org.zulip.Zulip";

interface Stored {
  user_id: number;
  kind: string;
  token: string;
  app_id: string | null;
}

const stored = (token: string) => queryServer<Stored>(org.server, "SELECT user_id, kind, token, app_id FROM push_devices WHERE token = ?", token);
const count = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM push_devices")[0].n;

let counter = 0;
/** A 32-byte APNs token, as hex, unique to the test. */
const apnsToken = () => (++counter).toString(16).padStart(8, "0").repeat(8);
const fcmToken = () => `fcm-token:${++counter}-${"A".repeat(140)}`;

function expectMessage(response: { status: number; body: any }, message: string) {
  expectError(response, "BAD_REQUEST");
  expect(response.body.msg).toBe(message);
}

describe("APNs device tokens", () => {
  test("registering stores the token with its app ID for the caller", async () => {
    const token = apnsToken();
    expect(ok(await org.member.api.post(APNS, { token, appid: APP_ID }))).toEqual({ result: "success", msg: "" });
    expect(stored(token)).toEqual([{ user_id: org.member.id, kind: "apns", token, app_id: APP_ID }]);
    // Registering again is harmless.
    ok(await org.member.api.post(APNS, { token, appid: APP_ID }));
    expect(stored(token)).toHaveLength(1);
  });

  test("a token another account registered moves to whoever registers it now", async () => {
    const token = apnsToken();
    ok(await org.member.api.post(APNS, { token, appid: APP_ID }));
    ok(await org.member2.api.post(APNS, { token, appid: "org.zulip.Zulip.dev" }));
    expect(stored(token)).toEqual([{ user_id: org.member2.id, kind: "apns", token, app_id: "org.zulip.Zulip.dev" }]);
  });

  test("every human role may register; bots may not", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.guest]) ok(await person.api.post(APNS, { token: apnsToken(), appid: APP_ID }));
    const before = count();
    expectError(await org.bot.api.post(APNS, { token: apnsToken(), appid: APP_ID }), "BAD_REQUEST");
    expect(count()).toBe(before);
  });

  test.each([
    ["an empty token", "", "Empty or invalid length token"],
    ["a token over 4096 characters", "ab".repeat(2049), "Empty or invalid length token"],
    ["a token that is not hex", "xyz uses non-hex characters", "Invalid APNS token"],
    ["a token with an odd number of hex digits", "abc", "Invalid APNS token"],
  ])("%s is refused and nothing is stored", async (_name, token, message) => {
    const before = count();
    expectMessage(await org.member.api.post(APNS, { token, appid: APP_ID }), message);
    expect(count()).toBe(before);
  });

  test("appid is required and must look like an app ID", async () => {
    const before = count();
    expectError(await org.member.api.post(APNS, { token: apnsToken() }), "BAD_REQUEST");
    expectError(await org.member.api.post(APNS, { token: apnsToken(), appid: "not an app id!" }), "BAD_REQUEST");
    expectError(await org.member.api.post(APNS, { appid: APP_ID }), "BAD_REQUEST");
    expectError(await org.member.api.post(APNS, { token: "a".repeat(20_000), appid: APP_ID }), "BAD_REQUEST");
    expect(count()).toBe(before);
  });

  test("removing: only the caller's own token; otherwise the reference's errors", async () => {
    const token = apnsToken();
    ok(await org.member.api.post(APNS, { token, appid: APP_ID }));
    expectMessage(await org.member2.api.delete(APNS, { token }), "Token does not exist");
    expect(stored(token)).toHaveLength(1);
    ok(await org.member.api.delete(APNS, { token }));
    expect(stored(token)).toEqual([]);
    expectMessage(await org.member.api.delete(APNS, { token }), "Token does not exist");
    expectMessage(await org.member.api.delete(APNS, { token: "" }), "Empty or invalid length token");
    expectMessage(await org.member.api.delete(APNS, { token: "not hex" }), "Invalid APNS token");
    expectError(await org.member.api.delete(APNS, {}), "BAD_REQUEST");
  });
});

describe("FCM registration tokens", () => {
  test("registering and removing; FCM tokens need not be hex and have no app ID", async () => {
    const token = fcmToken();
    expect(ok(await org.member.api.post(FCM, { token }))).toEqual({ result: "success", msg: "" });
    expect(stored(token)).toEqual([{ user_id: org.member.id, kind: "fcm", token, app_id: null }]);
    ok(await org.member.api.delete(FCM, { token }));
    expect(stored(token)).toEqual([]);
    expectMessage(await org.member.api.delete(FCM, { token }), "Token does not exist");
  });

  test("the same string as APNs and FCM tokens are different registrations", async () => {
    const token = apnsToken();
    ok(await org.member.api.post(APNS, { token, appid: APP_ID }));
    ok(await org.member.api.post(FCM, { token }));
    expect(stored(token).map((row) => row.kind).sort()).toEqual(["apns", "fcm"]);
    ok(await org.member.api.delete(FCM, { token }));
    expect(stored(token).map((row) => row.kind)).toEqual(["apns"]);
  });

  test("length limits and bots, as for APNs", async () => {
    const before = count();
    expectMessage(await org.member.api.post(FCM, { token: "" }), "Empty or invalid length token");
    expectMessage(await org.member.api.post(FCM, { token: "x".repeat(4097) }), "Empty or invalid length token");
    expectError(await org.member.api.post(FCM, {}), "BAD_REQUEST");
    expectError(await org.bot.api.post(FCM, { token: fcmToken() }), "BAD_REQUEST");
    expect(count()).toBe(before);
    const token = fcmToken();
    ok(await org.member.api.post(FCM, { token }));
    expectMessage(await org.member2.api.delete(FCM, { token }), "Token does not exist");
    expect(stored(token)).toHaveLength(1);
  });
});
