import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queryServer } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "../events/support";

/**
 * Client devices and their end-to-end-encrypted push registration, as zulip-flutter calls them:
 * POST /register_client_device → {device_id}, POST /remove_client_device, POST
 * /mobile_push/register. Stored only; each user reaches only their own devices.
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

/** The reference's example values: a 0x31-prefixed 33-byte key and an 8-byte token ID, in base64. */
const PUSH_KEY = "MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt";
const TOKEN_ID = "hGsEWGmyyfI=";
const KEY = { push_key_id: 2408, push_key: PUSH_KEY };
const TOKEN = { token_kind: "fcm", token_id: TOKEN_ID, bouncer_public_key: "bouncer-public-key", encrypted_push_registration: "encrypted-push-registration-data" };

interface StoredDevice {
  id: number;
  user_id: number;
  push_key_id: number | null;
  push_key: string | null;
  token_kind: string | null;
  token_id: string | null;
  bouncer_public_key: string | null;
  encrypted_push_registration: string | null;
  push_registration_time: number | null;
}

const storedDevice = (id: number) => queryServer<StoredDevice>(org.server, "SELECT * FROM client_devices WHERE id = ?", id)[0];
const deviceCount = () => queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM client_devices")[0].n;

async function newDevice(person: Person = org.member): Promise<number> {
  return ok(await person.api.post("/register_client_device")).device_id;
}
const registerPush = (person: Person, params: Record<string, unknown>) => person.api.post("/mobile_push/register", params);

async function expectRefused(response: Promise<{ status: number; body: any }>, msg: string | null) {
  const result = await response;
  expectError(result, "BAD_REQUEST");
  if (msg !== null) expect(result.body.msg).toBe(msg);
}

describe("POST /register_client_device and /remove_client_device", () => {
  test("registering answers a new device ID, stored for the caller with nothing registered for push", async () => {
    const before = Math.floor(Date.now() / 1000);
    const body = ok(await org.member.api.post("/register_client_device"));
    expect(body).toEqual({ result: "success", msg: "", device_id: expect.any(Number) });
    const device = storedDevice(body.device_id);
    expect(device).toMatchObject({ user_id: org.member.id, push_key: null, token_id: null, push_registration_time: null });
    expect((device as unknown as { create_time: number }).create_time).toBeGreaterThanOrEqual(before - 1);
    expect(await newDevice()).not.toBe(body.device_id);
  });

  test("every human role may register and remove its own devices", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.member2, org.guest]) {
      const id = await newDevice(person);
      expect(storedDevice(id).user_id).toBe(person.id);
      expect(ok(await person.api.post("/remove_client_device", { device_id: id }))).toEqual({ result: "success", msg: "" });
      expect(storedDevice(id)).toBeUndefined();
    }
  });

  test("another user's device is refused as an unknown one, administrators included, and stays", async () => {
    const id = await newDevice(org.member);
    for (const person of [org.member2, org.admin, org.owner]) {
      await expectRefused(person.api.post("/remove_client_device", { device_id: id }), "Invalid device ID");
    }
    await expectRefused(org.member.api.post("/remove_client_device", { device_id: 999_999 }), "Invalid device ID");
    expect(storedDevice(id)).toBeDefined();
  });

  test("removing twice: the second time the device is unknown", async () => {
    const id = await newDevice();
    ok(await org.member.api.post("/remove_client_device", { device_id: id }));
    await expectRefused(org.member.api.post("/remove_client_device", { device_id: id }), "Invalid device ID");
  });

  test("bots have no devices", async () => {
    const count = deviceCount();
    await expectRefused(org.bot.api.post("/register_client_device"), "This endpoint does not accept bot requests.");
    const id = await newDevice();
    await expectRefused(org.bot.api.post("/remove_client_device", { device_id: id }), "This endpoint does not accept bot requests.");
    await expectRefused(registerPush(org.bot, { device_id: id, ...KEY, ...TOKEN }), "This endpoint does not accept bot requests.");
    expect(deviceCount()).toBe(count + 1);
  });

  test("one account holds at most 1,000 devices; removing one makes room", async () => {
    const person = org.moderator;
    const existing = queryServer<{ n: number }>(org.server, "SELECT count(*) AS n FROM client_devices WHERE user_id = ?", person.id)[0].n;
    const ids: number[] = [];
    for (let batch = existing; batch < 1000; batch += 50) {
      ids.push(...(await Promise.all(Array.from({ length: Math.min(50, 1000 - batch) }, () => newDevice(person)))));
    }
    await expectRefused(person.api.post("/register_client_device"), "Too many devices registered (limit: 1000); remove unused ones first.");
    ok(await person.api.post("/remove_client_device", { device_id: ids[0] }));
    await newDevice(person);
  }, 60_000);

  test("malformed or missing device IDs are 400 errors naming device_id", async () => {
    for (const params of [{}, { device_id: "abc" }, { device_id: "1.5" }, { device_id: "[1]" }]) {
      const refused = await org.member.api.post("/remove_client_device", params);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toContain("device_id");
    }
  });

  test("without credentials every endpoint is refused", async () => {
    for (const path of ["/register_client_device", "/remove_client_device", "/mobile_push/register"]) {
      const refused = await org.anon.post(path, { device_id: 1 });
      expect(refused.status).toBe(401);
      expect(refused.body.result).toBe("error");
    }
  });
});

describe("POST /mobile_push/register", () => {
  test("the first registration takes both groups and stores them", async () => {
    const id = await newDevice();
    const before = Math.floor(Date.now() / 1000);
    expect(ok(await registerPush(org.member, { device_id: id, ...KEY, ...TOKEN }))).toEqual({ result: "success", msg: "" });
    const device = storedDevice(id);
    expect(device).toMatchObject({
      push_key_id: 2408,
      push_key: PUSH_KEY,
      token_kind: "fcm",
      token_id: TOKEN_ID,
      bouncer_public_key: "bouncer-public-key",
      encrypted_push_registration: "encrypted-push-registration-data",
    });
    expect(device.push_registration_time!).toBeGreaterThanOrEqual(before - 1);
  });

  test("the first registration with only one group is refused, and nothing is stored", async () => {
    const id = await newDevice();
    for (const group of [KEY, TOKEN]) {
      await expectRefused(registerPush(org.member, { device_id: id, ...group }), "The first registration of a device needs both the push key fields and the token fields.");
    }
    expect(storedDevice(id)).toMatchObject({ push_key: null, token_id: null, push_registration_time: null });
  });

  test("once registered, the key and the token rotate separately", async () => {
    const id = await newDevice();
    ok(await registerPush(org.member, { device_id: id, ...KEY, ...TOKEN }));
    const newKey = Buffer.concat([Buffer.from([0x31]), Buffer.alloc(32, 7)]).toString("base64");
    ok(await registerPush(org.member, { device_id: id, push_key_id: 4_294_967_295, push_key: newKey }));
    expect(storedDevice(id)).toMatchObject({ push_key_id: 4_294_967_295, push_key: newKey, token_id: TOKEN_ID });
    const newTokenId = Buffer.alloc(8, 1).toString("base64");
    ok(await registerPush(org.member, { device_id: id, token_kind: "apns", token_id: newTokenId, bouncer_public_key: "key-2", encrypted_push_registration: "blob-2" }));
    expect(storedDevice(id)).toMatchObject({ push_key: newKey, token_kind: "apns", token_id: newTokenId, bouncer_public_key: "key-2", encrypted_push_registration: "blob-2" });
  });

  test("another user's device, or an unknown one, is refused and unchanged", async () => {
    const id = await newDevice(org.member);
    for (const person of [org.member2, org.admin, org.owner]) {
      await expectRefused(registerPush(person, { device_id: id, ...KEY, ...TOKEN }), "Invalid device ID");
    }
    await expectRefused(registerPush(org.member, { device_id: 999_999, ...KEY, ...TOKEN }), "Invalid device ID");
    expect(storedDevice(id)).toMatchObject({ push_key: null, token_id: null });
  });

  test("each group must be given whole; at least one must be given", async () => {
    const id = await newDevice();
    await expectRefused(registerPush(org.member, { device_id: id }), null);
    await expectRefused(registerPush(org.member, { device_id: id, push_key_id: 1 }), "push_key_id and push_key must be given together.");
    await expectRefused(registerPush(org.member, { device_id: id, push_key: PUSH_KEY, ...TOKEN }), "push_key_id and push_key must be given together.");
    const { encrypted_push_registration: _omitted, ...partialToken } = TOKEN;
    await expectRefused(registerPush(org.member, { device_id: id, ...KEY, ...partialToken }), "token_kind, token_id, bouncer_public_key, encrypted_push_registration must be given together.");
    expect(storedDevice(id)).toMatchObject({ push_key: null, token_id: null });
  });

  test.each([
    ["push_key not base64", { push_key: "not base64!" }, "Invalid push_key"],
    ["push_key of the wrong length", { push_key: Buffer.concat([Buffer.from([0x31]), Buffer.alloc(16)]).toString("base64") }, "Invalid push_key"],
    ["push_key of an unknown cryptosystem", { push_key: Buffer.concat([Buffer.from([0x32]), Buffer.alloc(32)]).toString("base64") }, "Invalid push_key"],
    ["token_kind unknown", { token_kind: "gcm" }, "Invalid token_kind"],
    ["token_id not base64", { token_id: "%%%%" }, "Invalid token_id"],
    ["token_id of the wrong length", { token_id: Buffer.alloc(9).toString("base64") }, "Invalid token_id"],
    ["an empty bouncer_public_key", { bouncer_public_key: "" }, "Invalid bouncer_public_key"],
    ["an overlong encrypted_push_registration", { encrypted_push_registration: "e".repeat(10_001) }, "Invalid encrypted_push_registration"],
  ])("%s is refused and nothing changes", async (_label, override, msg) => {
    const id = await newDevice();
    await expectRefused(registerPush(org.member, { device_id: id, ...KEY, ...TOKEN, ...override }), msg);
    expect(storedDevice(id)).toMatchObject({ push_key: null, token_id: null, push_registration_time: null });
  });

  test.each([
    ["a negative push_key_id", { push_key_id: -1 }],
    ["a push_key_id past 32 bits", { push_key_id: 4_294_967_296 }],
    ["a fractional push_key_id", { push_key_id: 1.5 }],
    ["a push_key_id that is not a number", { push_key_id: "abc" }],
    ["a device_id that is not a number", { device_id: "abc" }],
    ["a huge token_id", { token_id: "x".repeat(200_000) }],
  ])("%s is a 400 error", async (_label, override) => {
    const id = await newDevice();
    await expectRefused(registerPush(org.member, { device_id: id, ...KEY, ...TOKEN, ...override }), null);
    expect(storedDevice(id)).toMatchObject({ push_key: null, token_id: null });
  });
});
