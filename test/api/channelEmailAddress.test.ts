import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, subscribe, uniqueName } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { SEED_TIMEOUT_MS } from "../events/support";

/**
 * GET /streams/{stream_id}/email_address (reference: get-stream-email-address): a stable
 * address of the reference's form. Parley has no e-mail gateway, so nothing is delivered to it.
 */

let org: Org;
let channelId: number;
let channelName: string;
beforeAll(async () => {
  org = await seedOrg();
  channelName = uniqueName("Mail Room");
  channelId = await createChannel(org, org.member, {}, channelName);
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const addressOf = (person: Person, id: number | string, params: Record<string, unknown> = {}) => person.api.get(`/streams/${id}/email_address`, params);
/** The organization's host, from its URL (not necessarily the address the test server listens on). */
const host = async () => new URL(ok(await org.anon.get("/server_settings")).realm_url).hostname;
const FORM = /^(?:[a-z0-9_-]+\.)?[0-9a-f]{32}\.show-sender@(.+)$/;

describe("the address", () => {
  test("has the reference's form: channel name, a 32-digit token, show-sender, the server's host", async () => {
    const body = ok(await addressOf(org.member, channelId));
    expect(Object.keys(body).sort()).toEqual(["email", "msg", "result"]);
    const [local, domain] = body.email.split("@");
    expect(domain).toBe(await host());
    expect(body.email).toMatch(FORM);
    // Runs of other characters become one hyphen: "Mail Room-1-xyz" is "mail-room-1-xyz".
    expect(local.startsWith(`${channelName.toLowerCase().replace(/ /g, "-")}.`)).toBe(true);
  });

  test("is stable: the same on every request and for every caller", async () => {
    const first = ok(await addressOf(org.member, channelId)).email;
    expect(ok(await addressOf(org.member, channelId)).email).toBe(first);
    expect(ok(await addressOf(org.member2, channelId)).email).toBe(first);
    expect(ok(await addressOf(org.admin, channelId)).email).toBe(first);
  });

  test("differs between channels and between senders", async () => {
    const other = await createChannel(org, org.member);
    const defaultAddress = ok(await addressOf(org.member, channelId)).email;
    expect(ok(await addressOf(org.member, other)).email).not.toBe(defaultAddress);
    const asSelf = ok(await addressOf(org.member, channelId, { sender_id: org.member.id })).email;
    const asBot = ok(await addressOf(org.member, channelId, { sender_id: org.bot.id })).email;
    expect(new Set([defaultAddress, asSelf, asBot]).size).toBe(3);
    for (const email of [asSelf, asBot]) expect(email).toMatch(FORM);
    // Another person asking for themselves gets their own address.
    expect(ok(await addressOf(org.member2, channelId, { sender_id: org.member2.id })).email).not.toBe(asSelf);
  });

  test("names that cannot be written in ASCII leave the name part out", async () => {
    const cyrillic = await createChannel(org, org.member, {}, `Почта ${Math.random().toString(36).slice(2, 6)}`);
    expect(ok(await addressOf(org.member, cyrillic)).email).toMatch(/^[0-9a-f]{32}\.show-sender@/);
    const accented = await createChannel(org, org.member, {}, `Café Ünïon ${Math.random().toString(36).slice(2, 6)}`);
    expect(ok(await addressOf(org.member, accented)).email).toMatch(/^cafe-union-[a-z0-9]+\.[0-9a-f]{32}\.show-sender@/);
  });
});

describe("who may ask", () => {
  test("anyone with access to the channel's content, bots included", async () => {
    for (const person of [org.owner, org.admin, org.moderator, org.member, org.member2, org.bot]) ok(await addressOf(person, channelId));
  });

  test("a guest not subscribed is refused as for an unknown channel, and served once subscribed", async () => {
    const refused = await addressOf(org.guest, channelId);
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("Invalid channel ID");
    await subscribe(org.member, [channelName], { principals: [org.guest.id] });
    ok(await addressOf(org.guest, channelId));
  });

  test("a private channel: only those with access; administrators who are not subscribed are refused", async () => {
    const secret = await createChannel(org, org.member, { invite_only: true });
    ok(await addressOf(org.member, secret));
    for (const person of [org.member2, org.admin, org.owner, org.guest, org.bot]) {
      const refused = await addressOf(person, secret);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Invalid channel ID");
    }
  });

  test("sender_id: another person, someone else's bot, or an unknown user are refused", async () => {
    for (const [senderId, msg] of [
      [org.member2.id, "Insufficient permission"],
      [org.bot.id, "Insufficient permission"],
      [999_999, "Invalid user ID"],
    ] as const) {
      const asker = senderId === org.bot.id ? org.member2 : org.member;
      const refused = await addressOf(asker, channelId, { sender_id: senderId });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe(msg);
    }
  });
});

describe("bad requests", () => {
  test("unknown channels are refused", async () => {
    for (const id of [0, 999_999]) {
      const refused = await addressOf(org.member, id);
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe("Invalid channel ID");
    }
  });

  test("malformed IDs are 400 errors", async () => {
    for (const id of ["abc", "-3", "2.5"]) expectError(await addressOf(org.member, id), "BAD_REQUEST");
    for (const senderId of ["abc", "1.5", "[1]"]) {
      const refused = await addressOf(org.member, channelId, { sender_id: senderId });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toContain("sender_id");
    }
  });

  test("without credentials the request is refused", async () => {
    const refused = await org.anon.get(`/streams/${channelId}/email_address`);
    expect(refused.status).toBe(401);
    expect(refused.body.result).toBe("error");
  });
});
