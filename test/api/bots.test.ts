import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../helpers/client";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { setRealmSetting, systemGroupId } from "../helpers/channels";

const BOT_FIELDS = "api_key avatar_url bot_type default_all_public_streams default_events_register_stream default_sending_stream email full_name is_active owner_id services user_id".split(" ");
const SITE = "http://localhost:8080";

let org: Org;
let notificationBotId: number;

const ownBots = async (person: Person) => ok(await person.api.get("/bots")).bots as any[];
const userCount = async () => ok(await org.owner.api.get("/users")).members.length as number;

/** The configuration download, raw: it is a file, not JSON, when it succeeds. */
async function downloadZuliprc(person: Person, botId: number | string) {
  const response = await fetch(`${org.server.url}/api/v1/bots/${botId}/zuliprc`, {
    headers: { authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}` },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function expectNoSuchBot(download: { status: number; headers: Headers; text: string }) {
  expect(download.status).toBe(400);
  expect(download.headers.get("content-type")).toStartWith("application/json");
  expect(JSON.parse(download.text)).toEqual({ result: "error", msg: "No such bot", code: "BAD_REQUEST" });
}

beforeAll(async () => {
  org = await seedOrg();
  notificationBotId = ok(await org.owner.api.get("/users/notification-bot@localhost")).user.user_id;
});
afterAll(() => org.server.dispose());

describe("POST /bots", () => {
  test("creates a generic bot owned by the caller, which can use the API at once", async () => {
    const body = ok(await org.member2.api.post("/bots", { full_name: "Weather Bot", short_name: " Weather ", bot_type: 1 }));
    expect(Object.keys(body).sort()).toEqual(["api_key", "avatar_url", "default_all_public_streams", "default_events_register_stream", "default_sending_stream", "email", "msg", "result", "user_id"]);
    expect(body).toMatchObject({ email: "weather-bot@localhost", default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false });
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(body.avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
    const me = ok(await new ApiClient(org.server.url, body.email, body.api_key).get("/users/me"));
    expect(me).toMatchObject({ user_id: body.user_id, is_bot: true, bot_type: 1, bot_owner_id: org.member2.id, role: 400, full_name: "Weather Bot" });
  });

  test("defaults to a generic bot", async () => {
    const body = ok(await org.member2.api.post("/bots", { full_name: "Plain Bot", short_name: "plain" }));
    expect(ok(await org.member2.api.get(`/users/${body.user_id}`)).user.bot_type).toBe(1);
  });

  test("creates an outgoing webhook bot from a JSON-encoded or a plain payload_url, with a fixed token", async () => {
    const encoded = ok(await org.member2.api.post("/bots", { full_name: "Hook Bot", short_name: "hook", bot_type: 3, payload_url: JSON.stringify("https://hooks.example.com/zulip"), interface_type: 2 }));
    const plain = ok(await org.member2.api.post("/bots", { full_name: "Plain Hook Bot", short_name: "plain-hook", bot_type: 3, payload_url: "http://10.0.0.9:9/hook" }));
    const bots = await ownBots(org.member2);
    const hook = bots.find((bot) => bot.user_id === encoded.user_id);
    expect(hook.services).toEqual([{ base_url: "https://hooks.example.com/zulip", token: expect.stringMatching(/^[A-Za-z0-9]{32}$/), interface: 2 }]);
    expect(hook.services[0].token).not.toBe(hook.api_key);
    expect(bots.find((bot) => bot.user_id === plain.user_id).services).toEqual([{ base_url: "http://10.0.0.9:9/hook", token: expect.any(String), interface: 1 }]);
  });

  test("creates an incoming webhook bot, ignoring payload_url for it", async () => {
    const body = ok(await org.member2.api.post("/bots", { full_name: "Incoming Bot", short_name: "incoming", bot_type: 2, payload_url: "" }));
    expect((await ownBots(org.member2)).find((bot) => bot.user_id === body.user_id)).toMatchObject({ bot_type: 2, services: [] });
  });

  test("is open to members, moderators, administrators and owners", async () => {
    for (const role of ["member", "moderator", "admin", "owner"] as const) {
      const body = ok(await org[role].api.post("/bots", { full_name: `Bot of ${role}`, short_name: `bot-of-${role}` }));
      expect(ok(await org.owner.api.get(`/users/${body.user_id}`)).user.bot_owner_id).toBe(org[role].id);
    }
  });

  for (const [role, message] of [["guest", "Guests cannot create bots."], ["bot", "Bots cannot create bots."]] as const) {
    test(`refuses a ${role}, saying why, and creates nothing`, async () => {
      const before = await userCount();
      const response = await org[role].api.post("/bots", { full_name: `Refused ${role} Bot`, short_name: `refused-${role}`, bot_type: 2 });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(message);
      expect(await userCount()).toBe(before);
    });
  }

  test("follows can_create_bots_group, and can_create_write_only_bots_group for incoming webhooks", async () => {
    const administrators = systemGroupId(org.server, "role:administrators");
    setRealmSetting(org.server, "can_create_bots_group", administrators);
    try {
      const before = await userCount();
      for (const role of ["member", "moderator"] as const) {
        const refused = await org[role].api.post("/bots", { full_name: `Limited ${role} Bot`, short_name: `limited-${role}`, bot_type: 1 });
        expectError(refused, "BAD_REQUEST");
        expect(refused.body.msg).toContain("can_create_bots_group");
      }
      expect(await userCount()).toBe(before);
      ok(await org.admin.api.post("/bots", { full_name: "Admin Generic Bot", short_name: "admin-generic", bot_type: 1 }));
      ok(await org.member.api.post("/bots", { full_name: "Member Incoming Bot", short_name: "member-incoming", bot_type: 2 }));

      setRealmSetting(org.server, "can_create_write_only_bots_group", administrators);
      const incoming = await org.member.api.post("/bots", { full_name: "Second Incoming Bot", short_name: "second-incoming", bot_type: 2 });
      expectError(incoming, "BAD_REQUEST");
      expect(incoming.body.msg).toContain("can_create_write_only_bots_group");
    } finally {
      const members = systemGroupId(org.server, "role:members");
      setRealmSetting(org.server, "can_create_bots_group", members);
      setRealmSetting(org.server, "can_create_write_only_bots_group", members);
    }
  });

  test("refuses a short name already in use, in any letter case", async () => {
    const response = await org.member2.api.post("/bots", { full_name: "Another Helper", short_name: "HELPER" });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("Username already in use");
  });

  test("refuses a full name an active user already has", async () => {
    for (const full_name of ["Helper Bot", "mel member"]) {
      const response = await org.member2.api.post("/bots", { full_name, short_name: "unique-short-name" });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain("Name is already in use");
    }
  });

  test("refuses bad names, types and payload URLs, creating nothing", async () => {
    const before = await userCount();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ short_name: "" }, "must not be empty"],
      [{ short_name: "   " }, "must not be empty"],
      [{ short_name: "has space" }, "may contain only"],
      [{ short_name: "at@sign" }, "may contain only"],
      [{ short_name: "double..dot" }, "may contain only"],
      [{ short_name: "x".repeat(61) }, "at most 60"],
      [{ full_name: "B" }, "Name too short"],
      [{ full_name: "Bad `Bot`" }, "Invalid characters"],
      [{ bot_type: 4 }, "Embedded bots are not supported"],
      [{ bot_type: 9 }, "Invalid bot type"],
      [{ bot_type: 0 }, "Invalid bot type"],
      [{ interface_type: 3 }, "Invalid interface type"],
      [{ bot_type: 3 }, "needs a payload_url"],
      [{ bot_type: 3, payload_url: "" }, "needs a payload_url"],
      [{ bot_type: 3, payload_url: '""' }, "needs a payload_url"],
      [{ bot_type: 3, payload_url: "ftp://example.com/x" }, "http or https"],
      [{ bot_type: 3, payload_url: "javascript:alert(1)" }, "http or https"],
      [{ bot_type: 3, payload_url: "not a url" }, "not a valid URL"],
      [{ bot_type: 3, payload_url: '"https://unterminated' }, "not valid JSON"],
      [{ bot_type: 3, payload_url: "[1]" }, "not a valid URL"],
      // The outgoing-request policy, where it needs no name lookup (test/api/outgoingWebhooksUrls.test.ts).
      [{ bot_type: 3, payload_url: "http://127.0.0.1:9/hook" }, "resolves to a local address (127.0.0.1), which is refused unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set"],
      [{ bot_type: 3, payload_url: "http://x.localhost./hook" }, "'x.localhost.' resolves to a local address"],
    ];
    for (const [change, message] of bad) {
      const response = await org.member2.api.post("/bots", { full_name: "Fine Bot Name", short_name: "fine", ...change });
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toContain(message);
    }
    expect(await userCount()).toBe(before);
  });

  test("refuses missing, mistyped and oversized parameters", async () => {
    const missing = await org.member2.api.post("/bots", { full_name: "No Short Name" });
    expectError(missing, "BAD_REQUEST");
    expect(missing.body.var_name).toBe("short_name");
    expectError(await org.member2.api.post("/bots", { full_name: "Typed Bot", short_name: "typed", bot_type: "generic" }), "BAD_REQUEST");
    expectError(await org.member2.api.post("/bots", { full_name: "x".repeat(5000), short_name: "huge" }), "BAD_REQUEST");
    expectError(await org.member2.api.post("/bots", { full_name: "Huge Url Bot", short_name: "huge-url", bot_type: 3, payload_url: `https://example.com/${"x".repeat(5000)}` }), "BAD_REQUEST");
  });

  test("refuses the unauthenticated", async () => {
    expectError(await org.anon.post("/bots", { full_name: "Anon Bot", short_name: "anon" }), "UNAUTHORIZED", 401);
  });
});

describe("GET /bots", () => {
  test("lists the caller's own active bots in the reference Bot shape", async () => {
    const bots = await ownBots(org.member);
    const helper = bots.find((bot) => bot.user_id === org.bot.id);
    expect(Object.keys(helper).sort()).toEqual(BOT_FIELDS);
    expect(helper).toMatchObject({ full_name: "Helper Bot", email: org.bot.email, api_key: org.bot.apiKey, bot_type: 1, owner_id: org.member.id, is_active: true, services: [] });
    expect(bots.every((bot) => bot.owner_id === org.member.id)).toBe(true);
  });

  test("shows administrators only their own bots too", async () => {
    const bots = await ownBots(org.admin);
    expect(bots.every((bot) => bot.owner_id === org.admin.id)).toBe(true);
    expect(bots.some((bot) => bot.user_id === org.bot.id)).toBe(false);
  });

  test("leaves out deactivated bots", async () => {
    const body = ok(await org.member2.api.post("/bots", { full_name: "Retired Bot", short_name: "retired" }));
    ok(await org.member2.api.delete(`/bots/${body.user_id}`));
    expect((await ownBots(org.member2)).some((bot) => bot.user_id === body.user_id)).toBe(false);
  });

  for (const [role, message] of [["guest", "Guests cannot own bots."], ["bot", "Bots cannot own bots."]] as const) {
    test(`refuses a ${role}, saying why`, async () => {
      const response = await org[role].api.get("/bots");
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe(message);
    });
  }
});

describe("GET /bots/{bot_id}/zuliprc", () => {
  test("gives the owner the bot's configuration file, whose key works", async () => {
    const download = await downloadZuliprc(org.member, org.bot.id);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toStartWith("text/plain");
    expect(download.headers.get("content-disposition")).toBe("attachment; filename=zuliprc");
    expect(download.text).toBe(`[api]\nemail=${org.bot.email}\nkey=${org.bot.apiKey}\nsite=${SITE}\n`);
    ok(await new ApiClient(org.server.url, org.bot.email, /key=(.*)/.exec(download.text)![1]).get("/users/me"));
  });

  test("adds the fixed token for an outgoing webhook bot", async () => {
    const body = ok(await org.member.api.post("/bots", { full_name: "Token Bot", short_name: "token", bot_type: 3, payload_url: "https://example.com/hook" }));
    const token = (await ownBots(org.member)).find((bot) => bot.user_id === body.user_id).services[0].token;
    const download = await downloadZuliprc(org.member, body.user_id);
    expect(download.text).toBe(`[api]\nemail=token-bot@localhost\nkey=${body.api_key}\nsite=${SITE}\ntoken=${token}\n`);
  });

  test("gives it to organization administrators and owners", async () => {
    for (const person of [org.admin, org.owner]) expect((await downloadZuliprc(person, org.bot.id)).text).toContain(`key=${org.bot.apiKey}`);
  });

  test("answers everyone else 'No such bot', without the key", async () => {
    for (const person of [org.member2, org.moderator, org.guest, org.bot]) {
      const download = await downloadZuliprc(person, org.bot.id);
      expectNoSuchBot(download);
      expect(download.text).not.toContain(org.bot.apiKey);
    }
  });

  test("answers 'No such bot' for unknown IDs, people and system bots, even to the owner", async () => {
    for (const id of [999999, org.member.id, notificationBotId]) expectNoSuchBot(await downloadZuliprc(org.owner, id));
    expectError(await org.owner.api.get("/bots/not-a-number/zuliprc"), "BAD_REQUEST");
    expectError(await org.anon.get(`/bots/${org.bot.id}/zuliprc`), "UNAUTHORIZED", 401);
  });
});
