import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { postFrom } from "../helpers/fromAddress";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";

/** POST /bots/{bot_id}/api_key/regenerate: a Parley addition the original's web app uses. */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
});
afterAll(() => org.server.dispose());

const regenerate = (person: Person, botId: number | string) => person.api.post(`/bots/${botId}/api_key/regenerate`);

/** A fresh generic bot owned by `owner`, with a client using its key. */
async function newBot(owner: Person, shortName: string) {
  const body = ok(await owner.api.post("/bots", { full_name: `${shortName} bot`, short_name: shortName }));
  return { id: body.user_id as number, email: body.email as string, apiKey: body.api_key as string, api: new ApiClient(org.server.url, body.email, body.api_key) };
}

const currentKey = async (owner: Person, botId: number) => (ok(await owner.api.get("/bots")).bots as any[]).find((bot) => bot.user_id === botId).api_key as string;

describe("POST /bots/{bot_id}/api_key/regenerate", () => {
  test("the owner gets a new key; the old one is refused at once and the new one works", async () => {
    const bot = await newBot(org.member, "rotating");
    ok(await bot.api.get("/users/me"));
    const body = ok(await regenerate(org.member, bot.id));
    expect(Object.keys(body).sort()).toEqual(["api_key", "msg", "result"]);
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.api_key).not.toBe(bot.apiKey);
    expectError(await bot.api.get("/users/me"), "INVALID_API_KEY", 401);
    expect(ok(await new ApiClient(org.server.url, bot.email, body.api_key).get("/users/me")).user_id).toBe(bot.id);
    expect(await currentKey(org.member, bot.id)).toBe(body.api_key);
  });

  test("the new key is in the bot's zuliprc", async () => {
    const bot = await newBot(org.member, "rotating-rc");
    const { api_key } = ok(await regenerate(org.member, bot.id));
    const response = await fetch(`${org.server.url}/api/v1/bots/${bot.id}/zuliprc`, {
      headers: { authorization: `Basic ${Buffer.from(`${org.member.email}:${org.member.apiKey}`).toString("base64")}` },
    });
    expect(await response.text()).toContain(`key=${api_key}\n`);
  });

  for (const role of ["admin", "owner"] as const) {
    test(`an organization ${role === "admin" ? "administrator" : "owner"} may replace another member's bot's key`, async () => {
      const bot = await newBot(org.member, `by-${role}`);
      const body = ok(await regenerate(org[role], bot.id));
      expectError(await bot.api.get("/users/me"), "INVALID_API_KEY", 401);
      expect(await currentKey(org.member, bot.id)).toBe(body.api_key);
    });
  }

  test("a deactivated bot's key may be replaced too, and the bot stays deactivated", async () => {
    const bot = await newBot(org.member, "sleeping");
    ok(await org.member.api.delete(`/bots/${bot.id}`));
    const body = ok(await regenerate(org.member, bot.id));
    expectError(await new ApiClient(org.server.url, bot.email, body.api_key).get("/users/me"), "USER_DEACTIVATED", 401);
  });

  for (const role of ["member2", "moderator", "guest", "bot"] as const) {
    test(`refuses ${role === "bot" ? "another bot" : `a ${role === "member2" ? "member" : role} who does not own the bot`}, leaving the key alone`, async () => {
      const bot = await newBot(org.member, `kept-from-${role}`);
      const response = await regenerate(org[role], bot.id);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("No such bot");
      expect(await currentKey(org.member, bot.id)).toBe(bot.apiKey);
      ok(await bot.api.get("/users/me"));
    });
  }

  test("a bot cannot replace its own key", async () => {
    const bot = await newBot(org.member, "self-rotating");
    const response = await bot.api.post(`/bots/${bot.id}/api_key/regenerate`);
    expectError(response, "BAD_REQUEST");
    expect(await currentKey(org.member, bot.id)).toBe(bot.apiKey);
  });

  test("answers 'No such bot' for unknown IDs, people and system bots, even to the owner", async () => {
    const notificationBot = ok(await org.owner.api.get("/users/notification-bot@localhost")).user.user_id;
    for (const id of [999_999, org.member.id, org.owner.id, notificationBot, 0, -1]) {
      const response = await regenerate(org.owner, id);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("No such bot");
    }
    // A person's key is not touched by naming them here.
    ok(await org.member.api.get("/users/me"));
  });

  test("refuses malformed IDs and the unauthenticated", async () => {
    expectError(await regenerate(org.owner, "abc"), "BAD_REQUEST");
    expectError(await regenerate(org.owner, "1.5"), "BAD_REQUEST");
    expectError(await org.anon.post(`/bots/${org.bot.id}/api_key/regenerate`), "UNAUTHORIZED", 401);
    expectError(await org.anon.as(org.member.email, "wrong-key").post(`/bots/${org.bot.id}/api_key/regenerate`), "INVALID_API_KEY", 401);
  });

  test("tells the bot's owner and the administrators, and no one else", async () => {
    const bot = await newBot(org.member2, "announced");
    const everyone = [org.owner, org.admin, org.moderator, org.member, org.member2, org.guest];
    const queues = await Promise.all(everyone.map(async (person) => ok(await person.api.post("/register", { event_types: ["realm_bot", "realm_user"] })).queue_id as string));
    const { api_key } = ok(await regenerate(org.admin, bot.id));
    const received = await Promise.all(
      everyone.map(async (person, index) => {
        const events = ok(await person.api.get("/events", { queue_id: queues[index], last_event_id: -1, dont_block: true })).events as any[];
        return events.filter((event) => event.type === "realm_bot");
      }),
    );
    const expected = [{ type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key }, id: expect.any(Number) }];
    expect(received).toEqual([expected, expected, [], [], expected, []]);
  });

  test("from a browser session: the owner with the CSRF header may; without it, or for someone else's bot, refused", async () => {
    const signIn = await postFrom("127.0.0.9", `${org.server.url}/login`, { username: org.member2.email, password: org.member2.password });
    expect(signIn.status).toBe(303);
    const cookies = (signIn.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]);
    const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
    const post = async (botId: number, withCsrf: boolean) => {
      const headers: Record<string, string> = { cookie: cookies.join("; ") };
      if (withCsrf) headers["x-csrf-token"] = csrf;
      const response = await fetch(`${org.server.url}/api/v1/bots/${botId}/api_key/regenerate`, { method: "POST", headers });
      return { status: response.status, body: await response.json() };
    };
    const own = await newBot(org.member2, "session-rotated");
    expect(ok(await post(own.id, true)).api_key).not.toBe(own.apiKey);
    const others = await newBot(org.member, "session-kept");
    expectError(await post(others.id, true), "BAD_REQUEST");
    expect((await post(own.id, false)).status).toBe(403);
    expect(await currentKey(org.member, others.id)).toBe(others.apiKey);
  });
});
