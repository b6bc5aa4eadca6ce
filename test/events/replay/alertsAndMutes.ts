import { describe, expect, test } from "bun:test";
import { uniqueName } from "../../helpers/channels";
import { ok, type Org } from "../../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../../helpers/sending";
import { LEGACY, replay } from "./harness";

/**
 * Alert words and muted users: both sections are replaced whole by their events; a mute also
 * marks the muted person's unread messages read, and their next messages arrive read. Each
 * scenario undoes what it set, since later scenarios share the organization.
 */
export function alertAndMuteScenarios(org: () => Org) {
  describe("alert words and muted users", () => {
    test("alert words added and removed reach only their owner; a message with one arrives flagged", async () => {
      const { member, member2, moderator } = org();
      const name = uniqueName("alerts");
      ok(await member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [member.id, member2.id] }));
      await replay([{ person: member2 }, { person: member2, params: LEGACY }, { person: moderator, unaware: true }], async () => {
        ok(await member2.api.post("/users/me/alert_words", { alert_words: ["Deploy", "big news"] }));
        ok(await member2.api.delete("/users/me/alert_words", { alert_words: ["deploy"] }));
      });
      const [{ events }] = await replay([{ person: member2 }], () => sendOk(member, channelMessage(name, "t", "Some BIG NEWS today")));
      expect(events.find((event) => event.type === "message")!.flags).toEqual(["has_alert_word"]);
      await replay([{ person: member2 }], () => member2.api.delete("/users/me/alert_words", { alert_words: ["big news"] }).then(ok));
    });

    test("muting marks the muted person's unread messages read; their next ones arrive read; unmuting", async () => {
      const { member2, guest, moderator } = org();
      ok(await guest.api.post("/messages", directMessage([member2.id], "unread before the mute")));
      const [muter] = await replay([{ person: member2 }, { person: member2, params: LEGACY }, { person: guest, unaware: true }, { person: moderator, unaware: true }], () =>
        member2.api.post(`/users/me/muted_users/${guest.id}`).then(ok),
      );
      expect(muter.events.map((event) => event.type)).toEqual(["update_message_flags", "muted_users"]);
      const [arrival] = await replay([{ person: member2 }], () => sendOk(guest, directMessage([member2.id], "sent while muted")));
      expect(arrival.events.find((event) => event.type === "message")!.flags).toEqual(["read"]);
      expect(arrival.fresh.unread_msgs).toEqual(arrival.snapshot.unread_msgs);
      await replay([{ person: member2 }, { person: guest, unaware: true }], () => member2.api.delete(`/users/me/muted_users/${guest.id}`).then(ok));
    });
  });
}
