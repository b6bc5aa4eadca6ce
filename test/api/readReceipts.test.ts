import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS } from "../events/support";

/** GET /messages/{message_id}/read_receipts (the mobile app's "Read receipts" sheet) and GET /realm/profile_fields. */

let org: Org;
let name = "";
beforeAll(async () => {
  org = await seedOrg();
  name = uniqueName("receipts");
  const { member, member2, moderator, admin } = org;
  ok(await member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [member.id, member2.id, moderator.id, admin.id] }));
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

const receipts = async (viewer: Person, id: number) => ok(await viewer.api.get(`/messages/${id}/read_receipts`)).user_ids as number[];
const markRead = (person: Person, id: number) => person.api.post("/messages/flags", { messages: [id], op: "add", flag: "read" }).then(ok);

describe("GET /messages/{message_id}/read_receipts", () => {
  test("lists who read a channel message, never the sender; unread, then read, then unread again", async () => {
    const { member, member2, moderator, admin } = org;
    const id = (await sendOk(member, channelMessage(name, "t", "read me"))).id;
    expect(await receipts(member, id)).toEqual([]);
    await markRead(member2, id);
    await markRead(moderator, id);
    expect(ok(await member.api.get(`/messages/${id}/read_receipts`))).toEqual({ result: "success", msg: "", user_ids: [moderator.id, member2.id].sort((a, b) => a - b) });
    // Everyone who may read the message may ask, a reader included.
    expect(await receipts(member2, id)).toEqual([moderator.id, member2.id].sort((a, b) => a - b));
    ok(await member2.api.post("/messages/flags", { messages: [id], op: "remove", flag: "read" }));
    expect(await receipts(admin, id)).toEqual([moderator.id]);
  });

  test("reading everything up to a message (a read mark) counts, as the flag does", async () => {
    const { member, admin } = org;
    const id = (await sendOk(member, channelMessage(name, "t", "marked"))).id;
    ok(await admin.api.post("/mark_all_as_read"));
    expect(await receipts(member, id)).toContain(admin.id);
  });

  test("direct messages: the participants who read it", async () => {
    const { member, member2, guest } = org;
    const id = (await sendOk(member, directMessage([member2.id, guest.id], "three of us"))).id;
    await markRead(guest, id);
    expect(await receipts(member2, id)).toEqual([guest.id]);
  });

  test("people who turned send_read_receipts off and people muted either way are left out", async () => {
    const { member, member2, moderator, admin } = org;
    const id = (await sendOk(member, channelMessage(name, "t", "private reading"))).id;
    for (const reader of [member2, moderator, admin]) await markRead(reader, id);
    ok(await member2.api.patch("/settings", { send_read_receipts: false }));
    expect(await receipts(member, id)).toEqual([moderator.id, admin.id].sort((a, b) => a - b));
    // The viewer muted the moderator; the admin muted the viewer.
    editServerDatabase(org.server, "INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, 0), (?, ?, 0)", member.id, moderator.id, admin.id, member.id);
    expect(await receipts(member, id)).toEqual([]);
    ok(await member2.api.patch("/settings", { send_read_receipts: true }));
    expect(await receipts(member, id)).toEqual([member2.id]);
  });

  test("unknown messages and messages the caller may not read: Invalid message(s)", async () => {
    const { member, member2, guest } = org;
    const dm = (await sendOk(member, directMessage([member2.id], "just us"))).id;
    const inChannel = (await sendOk(member, channelMessage(name, "t", "not for guests"))).id;
    for (const [viewer, id] of [
      [guest, dm],
      [guest, inChannel],
      [member, 99_999_999],
    ] as const) {
      const response = await viewer.api.get(`/messages/${id}/read_receipts`);
      expectError(response, "BAD_REQUEST");
      expect(response.body.msg).toBe("Invalid message(s)");
    }
    expectError(await member.api.get("/messages/abc/read_receipts"), "BAD_REQUEST");
    expect((await org.anon.get(`/messages/${inChannel}/read_receipts`)).status).toBe(401);
  });
});

describe("GET /realm/profile_fields", () => {
  test("no custom profile fields can be configured: an empty list, for every role", async () => {
    for (const person of [org.owner, org.member, org.guest, org.bot]) expect(ok(await person.api.get("/realm/profile_fields"))).toEqual({ result: "success", msg: "", custom_fields: [] });
    expect((await org.anon.get("/realm/profile_fields")).status).toBe(401);
  });
});
