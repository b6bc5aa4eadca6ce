import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queryServer } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "../events/support";

/**
 * The bot storage API (python-zulip-api's get_storage, update_storage, remove_storage; the
 * reference server's zerver/views/storage.py): each bot's own string store, limited in size.
 */

let org: Org;
let otherBot: Person;
beforeAll(async () => {
  org = await seedOrg();
  const body = ok(await org.member2.api.post("/bots", { full_name: "Other Bot", short_name: "other", bot_type: 1 }));
  otherBot = { id: body.user_id, email: body.email, password: "", apiKey: body.api_key, api: org.anon.as(body.email, body.api_key) };
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const getStorage = (bot: Person, params: Record<string, unknown> = {}) => bot.api.get("/bot_storage", params);
const put = (bot: Person, storage: unknown) => bot.api.request("PUT", "/bot_storage", { storage });
const remove = (bot: Person, params: Record<string, unknown> = {}) => bot.api.delete("/bot_storage", params);
const stored = (bot: Person) =>
  Object.fromEntries(queryServer<{ key: string; value: string }>(org.server, "SELECT key, value FROM bot_storage WHERE bot_id = ? ORDER BY key", bot.id).map((row) => [row.key, row.value]));

async function reset(bot: Person) {
  ok(await remove(bot));
  expect(stored(bot)).toEqual({});
}

describe("PUT and GET /bot_storage", () => {
  test("as python-zulip-api's example: store three, read two, read all", async () => {
    await reset(org.bot);
    expect(ok(await put(org.bot, { "entry 1": "value 1", "entry 2": "value 2", "entry 3": "value 3" }))).toEqual({ result: "success", msg: "" });
    expect(ok(await getStorage(org.bot, { keys: ["entry 1", "entry 3"] }))).toEqual({ result: "success", msg: "", storage: { "entry 1": "value 1", "entry 3": "value 3" } });
    expect(ok(await getStorage(org.bot)).storage).toEqual({ "entry 1": "value 1", "entry 2": "value 2", "entry 3": "value 3" });
  });

  test("putting a key again replaces its value; other keys stay", async () => {
    await reset(org.bot);
    ok(await put(org.bot, { a: "1", b: "2" }));
    ok(await put(org.bot, { a: "one" }));
    expect(ok(await getStorage(org.bot)).storage).toEqual({ a: "one", b: "2" });
  });

  test("zulip_bots' StateHandler round trip: JSON text as the value, one key at a time", async () => {
    await reset(org.bot);
    const value = JSON.stringify({ score: 3, players: ["a", "b"] });
    ok(await put(org.bot, { game: value }));
    expect(JSON.parse(ok(await getStorage(org.bot, { keys: ["game"] })).storage.game)).toEqual({ score: 3, players: ["a", "b"] });
  });

  test("any string is a key: empty, unicode, __proto__", async () => {
    await reset(org.bot);
    const storage = { "": "empty", "ключ 🐙": "значение", __proto__x: "not special", constructor: "c" };
    ok(await put(org.bot, storage));
    ok(await put(org.bot, JSON.parse('{"__proto__": "plain"}')));
    const all = ok(await getStorage(org.bot)).storage;
    expect(all).toEqual(JSON.parse(JSON.stringify({ ...storage, ...JSON.parse('{"__proto__": "plain"}') })));
    expect(ok(await getStorage(org.bot, { keys: ["__proto__"] })).storage).toEqual(JSON.parse('{"__proto__": "plain"}'));
  });

  test("an empty object stores nothing and succeeds; an empty key list reads nothing", async () => {
    await reset(org.bot);
    ok(await put(org.bot, {}));
    expect(ok(await getStorage(org.bot, { keys: [] })).storage).toEqual({});
    expect(ok(await getStorage(org.bot)).storage).toEqual({});
  });

  test("a key that does not exist fails the whole read", async () => {
    await reset(org.bot);
    ok(await put(org.bot, { here: "yes" }));
    const refused = await getStorage(org.bot, { keys: ["here", "missing"] });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Key does not exist.");
    expect(refused.body.storage).toBeUndefined();
  });

  test("each bot has its own store; another bot's keys do not exist for it", async () => {
    await reset(org.bot);
    await reset(otherBot);
    ok(await put(org.bot, { mine: "bot 1" }));
    ok(await put(otherBot, { mine: "bot 2" }));
    expect(ok(await getStorage(org.bot)).storage).toEqual({ mine: "bot 1" });
    expect(ok(await getStorage(otherBot)).storage).toEqual({ mine: "bot 2" });
    ok(await put(otherBot, { theirs: "x" }));
    expectError(await getStorage(org.bot, { keys: ["theirs"] }), "BAD_REQUEST");
    expectError(await remove(org.bot, { keys: ["theirs"] }), "BAD_REQUEST");
    expect(stored(otherBot)).toEqual({ mine: "bot 2", theirs: "x" });
  });
});

describe("DELETE /bot_storage", () => {
  test("removes the named keys", async () => {
    await reset(org.bot);
    ok(await put(org.bot, { a: "1", b: "2", c: "3" }));
    expect(ok(await remove(org.bot, { keys: ["a", "c"] }))).toEqual({ result: "success", msg: "" });
    expect(stored(org.bot)).toEqual({ b: "2" });
  });

  test("without keys, removes everything the bot stored, and nothing of another bot's", async () => {
    ok(await put(org.bot, { a: "1", b: "2" }));
    ok(await put(otherBot, { kept: "yes" }));
    ok(await remove(org.bot));
    expect(stored(org.bot)).toEqual({});
    expect(stored(otherBot)).toMatchObject({ kept: "yes" });
  });

  test("a key that does not exist refuses the request and removes nothing", async () => {
    await reset(org.bot);
    ok(await put(org.bot, { a: "1", b: "2" }));
    const refused = await remove(org.bot, { keys: ["a", "nope"] });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Key does not exist.");
    expect(stored(org.bot)).toEqual({ a: "1", b: "2" });
  });
});

describe("the size limit", () => {
  const LIMIT = 10_000_000;
  test("keys and values together may take 10,000,000 characters; more is refused with the overshoot, and nothing of that request is stored", async () => {
    await reset(org.bot);
    // 10 entries of 999,990 characters plus 1-character keys: 9,999,910; then filled to exactly the limit.
    for (let i = 0; i < 10; i++) ok(await put(org.bot, { [String(i)]: "v".repeat(999_990) }));
    const used = 10 * (1 + 999_990);
    ok(await put(org.bot, { k: "x".repeat(LIMIT - used - 1) }));
    const refused = await put(org.bot, { y: "1", z: "1" });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe(`Request exceeds storage limit by 4 characters. The limit is ${LIMIT} characters.`);
    expect(stored(org.bot).y).toBeUndefined();
    // Replacing a value counts only the difference.
    ok(await put(org.bot, { k: "y".repeat(LIMIT - used - 1) }));
    ok(await put(org.bot, { "0": "" }));
    ok(await put(org.bot, { y: "1" }));
    await reset(org.bot);
  }, 60_000);

  test("characters, not UTF-16 units, are counted", async () => {
    await reset(org.bot);
    for (let i = 0; i < 10; i++) ok(await put(org.bot, { [String(i)]: "v".repeat(999_990) }));
    const room = LIMIT - 10 * 999_991 - 1;
    // `room` characters outside the BMP are 2 * room UTF-16 units, and fit.
    ok(await put(org.bot, { k: "𝔸".repeat(room) }));
    expectError(await put(org.bot, { m: "" }), "BAD_REQUEST");
    await reset(org.bot);
  }, 60_000);
});

describe("who may use it", () => {
  test("people of every role are refused, and nothing is stored", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.member, org.guest]) {
      for (const response of [await getStorage(person), await put(person, { a: "b" }), await remove(person)]) {
        expectError(response, "BAD_REQUEST");
        expect(response.body.msg).toBe("This endpoint is only available to bots.");
      }
    }
    expect(queryServer(org.server, "SELECT 1 FROM bot_storage WHERE bot_id IN (?, ?, ?, ?, ?)", org.owner.id, org.admin.id, org.moderator.id, org.member.id, org.guest.id)).toEqual([]);
  });

  test("without credentials every method is refused", async () => {
    for (const response of [await org.anon.get("/bot_storage"), await org.anon.request("PUT", "/bot_storage", { storage: {} }), await org.anon.delete("/bot_storage")]) {
      expect(response.status).toBe(401);
      expect(response.body.result).toBe("error");
    }
  });
});

describe("bad input", () => {
  test.each([
    ["not JSON", "{oops"],
    ["a list", ["a", "b"]],
    ["a number value", { a: 1 }],
    ["a null value", { a: null }],
    ["an object value", { a: { b: "c" } }],
    ["a string", "plain"],
  ])("storage as %s is a 400 error naming it, and nothing is stored", async (_label, storage) => {
    await reset(org.bot);
    const refused = await put(org.bot, storage);
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toContain("storage");
    expect(stored(org.bot)).toEqual({});
  });

  test("missing storage is a 400 error", async () => {
    const refused = await org.bot.api.request("PUT", "/bot_storage", {});
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toContain("storage");
  });

  test("null bytes in keys or values are refused", async () => {
    await reset(org.bot);
    for (const storage of [{ "a\u0000b": "v" }, { k: "v\u0000" }]) {
      const refused = await put(org.bot, storage);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Keys and values must not contain null bytes.");
    }
    expect(stored(org.bot)).toEqual({});
  });

  test.each([["not JSON", "[oops"], ["an object", { a: "b" }], ["numbers", [1, 2]], ["a string", "key"]])("keys as %s is a 400 error naming it", async (_label, keys) => {
    for (const response of [await getStorage(org.bot, { keys }), await remove(org.bot, { keys })]) {
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain("keys");
    }
  });
});
