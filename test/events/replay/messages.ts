import { describe, expect, test } from "bun:test";
import { channelId, uniqueName } from "../../helpers/channels";
import { ok, type Org } from "../../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../../helpers/sending";
import { LEGACY, replay } from "./harness";

/** Replays of messages and what happens to them: flags, edits, moves, reactions, deletion, typing. */
export function messageScenarios(org: () => Org) {
  describe("messages", () => {
    let name = "";
    let id = 0;
    const setUp = async () => {
      if (id !== 0) return;
      const { member, member2, moderator } = org();
      name = uniqueName("talk");
      ok(await member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [member.id, member2.id, moderator.id] }));
      id = channelId(org().server, name);
    };

    test("channel and direct messages, with mentions; the admin outside the channel hears nothing of it", async () => {
      await setUp();
      const { member, member2, moderator, admin, guest } = org();
      await replay([{ person: member }, { person: member2 }, { person: moderator, params: LEGACY }, { person: admin, unaware: true }], async () => {
        await sendOk(member, channelMessage(name, "plans", "@**Max Member** lunch?"));
        await sendOk(member2, channelMessage(name, "plans", "@**all** yes"));
      });
      await replay([{ person: member }, { person: member2 }, { person: guest }, { person: moderator, unaware: true }], async () => {
        await sendOk(member, directMessage([member2.id], "just us"));
        await sendOk(guest, directMessage([member.id, member2.id], "all three of us"));
      });
    });

    test("read, unread and starred flags, a whole topic marked read", async () => {
      await setUp();
      const { member, member2 } = org();
      const first = (await sendOk(member, channelMessage(name, "flags", "one"))).id;
      const second = (await sendOk(member, directMessage([member2.id], "two"))).id;
      await replay([{ person: member2 }, { person: member2, params: LEGACY }], async () => {
        ok(await member2.api.post("/messages/flags", { messages: [first, second], op: "add", flag: "read" }));
        ok(await member2.api.post("/messages/flags", { messages: [first], op: "add", flag: "starred" }));
      });
      await replay([{ person: member2 }], async () => {
        ok(await member2.api.post("/messages/flags", { messages: [first, second], op: "remove", flag: "read" }));
        ok(await member2.api.post("/messages/flags", { messages: [first], op: "remove", flag: "starred" }));
      });
      await replay([{ person: member2 }], () => member2.api.post("/mark_topic_as_read", { stream_id: id, topic_name: "flags" }).then(ok));
      await replay([{ person: member2 }], () => member2.api.post("/mark_all_as_read", {}).then(ok));
    });

    test("edits: new content with a mention, a topic moved with its unread messages, reactions change no state", async () => {
      await setUp();
      const { member, member2, moderator } = org();
      const older = (await sendOk(member, channelMessage(name, "before", "first draft"))).id;
      await sendOk(member, channelMessage(name, "before", "and more"));
      await replay([{ person: member }, { person: member2 }, { person: moderator, params: LEGACY }], async () => {
        ok(await member.api.patch(`/messages/${older}`, { content: "now with @**Max Member**" }));
        ok(await moderator.api.patch(`/messages/${older}`, { topic: "after", propagate_mode: "change_all" }));
      });
      const reacted = await replay([{ person: member2 }], async () => {
        ok(await member2.api.post(`/messages/${older}/reactions`, { emoji_name: "car" }));
        ok(await member2.api.delete(`/messages/${older}/reactions`, { emoji_name: "car" }));
      }, { changes: false });
      expect(reacted[0].events.map((event) => event.op)).toEqual(["add", "remove"]);
    });

    test("a message deleted: bulk for new clients, one by one for old ones", async () => {
      await setUp();
      const { member, member2, admin } = org();
      const doomed = (await sendOk(member, channelMessage(name, "doomed", "oops"))).id;
      await sendOk(member, channelMessage(name, "doomed", "newest, kept"));
      await replay([{ person: member }, { person: member2 }, { person: member2, params: LEGACY }], () => admin.api.delete(`/messages/${doomed}`).then(ok));
    });

    test("typing: recipients hear it and nobody else does; state stays as it was", async () => {
      await setUp();
      const { member, member2, admin, moderator, guest } = org();
      const message = (await sendOk(member, channelMessage(name, "typing", "edit me"))).id;
      await replay([{ person: member2 }, { person: admin, unaware: true }, { person: guest, unaware: true }], async () => {
        ok(await member.api.post("/typing", { op: "start", to: [member2.id] }));
        ok(await member.api.post("/typing", { op: "stop", to: [member2.id] }));
      }, { changes: false });
      await replay([{ person: moderator }, { person: moderator, params: LEGACY, unaware: true }, { person: admin, unaware: true }], async () => {
        ok(await member.api.post("/typing", { type: "stream", op: "start", stream_id: id, topic: "typing" }));
        ok(await member.api.post("/typing", { type: "stream", op: "stop", stream_id: id, topic: "typing" }));
      }, { changes: false });
      await replay([{ person: member2 }, { person: admin, unaware: true }], async () => {
        ok(await member.api.post(`/messages/${message}/typing`, { op: "start" }));
        ok(await member.api.post(`/messages/${message}/typing`, { op: "stop" }));
      }, { changes: false });
    });
  });
}
