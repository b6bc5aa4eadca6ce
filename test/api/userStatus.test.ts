import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { setRealmSetting, systemGroupId } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "../events/support";

/** User status (spec 2.5, 4.10): only what is passed changes; `away` is presence_enabled negated. */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const setStatus = (person: Person, params: Record<string, unknown>) => person.api.post("/users/me/status", params);

async function statusOf(person: Person, viewer: Person = org.member2) {
  return ok(await viewer.api.get(`/users/${person.id}/status`)).status;
}

async function presenceEnabled(person: Person): Promise<boolean> {
  return ok(await person.api.post("/register", { fetch_event_types: ["user_settings"] })).user_settings.presence_enabled;
}

describe("POST /users/me/status", () => {
  test("text and emoji are set, each change leaving the rest alone", async () => {
    expect(await statusOf(org.member)).toEqual({});
    expect(ok(await setStatus(org.member, { status_text: "out to lunch" }))).toEqual({ result: "success", msg: "" });
    expect(await statusOf(org.member)).toEqual({ status_text: "out to lunch" });
    ok(await setStatus(org.member, { emoji_name: "car" }));
    expect(await statusOf(org.member)).toEqual({ status_text: "out to lunch", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" });
    ok(await setStatus(org.member, { status_text: "  back soon  " }));
    expect(await statusOf(org.member)).toEqual({ status_text: "back soon", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" });
  });

  test("empty values clear the text and the emoji", async () => {
    ok(await setStatus(org.member2, { status_text: "busy", emoji_name: "smile" }));
    ok(await setStatus(org.member2, { emoji_name: "" }));
    expect(await statusOf(org.member2, org.member)).toEqual({ status_text: "busy" });
    ok(await setStatus(org.member2, { status_text: "" }));
    expect(await statusOf(org.member2, org.member)).toEqual({});
  });

  test("an emoji given by code and type, and the built-in extra emoji", async () => {
    ok(await setStatus(org.moderator, { emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji" }));
    expect(await statusOf(org.moderator)).toEqual({ emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji" });
    ok(await setStatus(org.moderator, { emoji_name: "zulip" }));
    expect(await statusOf(org.moderator)).toEqual({ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "svc_extra_emoji" });
  });

  test("away is presence_enabled negated, both ways", async () => {
    ok(await setStatus(org.admin, { away: true }));
    expect(await presenceEnabled(org.admin)).toBe(false);
    expect(await statusOf(org.admin)).toEqual({ away: true });
    ok(await setStatus(org.admin, { away: false, status_text: "here" }));
    expect(await presenceEnabled(org.admin)).toBe(true);
    expect(await statusOf(org.admin)).toEqual({ status_text: "here" });
  });

  test("sixty characters are allowed however many bytes or UTF-16 units they take; sixty-one are not", async () => {
    const sixty = "🎉".repeat(30) + "é".repeat(30);
    ok(await setStatus(org.guest, { status_text: sixty }));
    expect(await statusOf(org.guest)).toEqual({ status_text: sixty });
    const response = await setStatus(org.guest, { status_text: `${sixty}x` });
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe("status_text is too long (limit: 60 characters)");
    expect(await statusOf(org.guest)).toEqual({ status_text: sixty });
  });

  test.each([
    ["nothing to change", {}, "Client did not pass any new values."],
    ["emoji_code without emoji_name", { status_text: "x", emoji_code: "1f697" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
    ["reaction_type without emoji_name", { status_text: "x", reaction_type: "unicode_emoji" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
    ["an emoji that does not exist", { emoji_name: "no_such_emoji_here" }, "Emoji 'no_such_emoji_here' does not exist"],
    ["a name that does not match the code", { emoji_name: "car", emoji_code: "1f642", reaction_type: "unicode_emoji" }, "Invalid emoji name."],
    ["a custom emoji that does not exist", { emoji_name: "party", emoji_code: "1", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
    ["an unknown code", { emoji_name: "car", emoji_code: "ffffff", reaction_type: "unicode_emoji" }, "Invalid emoji code."],
    ["an unknown reaction type", { emoji_name: "car", emoji_code: "1f697", reaction_type: "sticker" }, "Invalid emoji type."],
  ])("%s is a BAD_REQUEST and changes nothing", async (_name, params, message) => {
    ok(await setStatus(org.owner, { status_text: "steady", emoji_name: "car" }));
    const response = await setStatus(org.owner, params);
    expectError(response, "BAD_REQUEST");
    expect(response.body.msg).toBe(message);
    expect(await statusOf(org.owner)).toEqual({ status_text: "steady", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" });
  });

  test("malformed values are 400s and change nothing", async () => {
    ok(await setStatus(org.owner, { status_text: "steady" }));
    expectError(await setStatus(org.owner, { away: "perhaps" }), "BAD_REQUEST");
    expectError(await setStatus(org.owner, { status_text: "x".repeat(100_000) }), "BAD_REQUEST");
    expect((await statusOf(org.owner)).status_text).toBe("steady");
    expect(await presenceEnabled(org.owner)).toBe(true);
  });

  test("bots have no status", async () => {
    expectError(await setStatus(org.bot, { status_text: "beep" }), "BAD_REQUEST");
  });
});

describe("GET /users/{user_id}/status", () => {
  test("unknown users, bots and non-numeric IDs are refused", async () => {
    for (const id of [999_999, org.bot.id]) {
      const response = await org.member.api.get(`/users/${id}/status`);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("No such user");
    }
    expectError(await org.member.api.get("/users/abc/status"), "BAD_REQUEST");
  });

  describe("when guests may not see everyone", () => {
    beforeAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:members")));
    afterAll(() => setRealmSetting(org.server, "can_access_all_users_group", systemGroupId(org.server, "role:everyone")));

    test("a guest cannot read the status of someone they may not see, but can read their own", async () => {
      ok(await setStatus(org.member, { status_text: "hidden from guests" }));
      expectError(await org.guest.api.get(`/users/${org.member.id}/status`), "BAD_REQUEST");
      expect((await statusOf(org.guest, org.guest)).status_text).toBeDefined();
    });
  });
});
