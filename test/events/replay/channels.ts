import { describe, test } from "bun:test";
import { channelId, uniqueName } from "../../helpers/channels";
import { ok, type Org } from "../../helpers/seed";
import { LEGACY, replay } from "./harness";

/** Replays of channel and subscription changes, for subscribers, others and guests. */
export function channelScenarios(org: () => Org) {
  describe("channels", () => {
    test("a public channel: created with others, described, renamed, made default; guests outside it hear nothing", async () => {
      const { member, member2, admin, guest, moderator } = org();
      const name = uniqueName("replay");
      const observers = [{ person: member }, { person: member2 }, { person: admin }, { person: moderator, params: LEGACY }];
      await replay([...observers, { person: guest, unaware: true }], () => member.api.post("/users/me/subscriptions", { subscriptions: [{ name, description: "first" }], principals: [member.id, member2.id] }).then(ok));
      const id = channelId(org().server, name);
      await replay(observers, async () => {
        ok(await admin.api.patch(`/streams/${id}`, { description: "**second**", new_name: `${name}-renamed` }));
        ok(await admin.api.post("/default_streams", { stream_id: id }));
      });
      await replay(observers, () => admin.api.delete("/default_streams", { stream_id: id }).then(ok));
    });

    test("members join and leave; subscribers and non-subscribers follow who is in", async () => {
      const { member, member2, admin, moderator, guest } = org();
      const name = uniqueName("replay");
      ok(await member.api.post("/users/me/subscriptions", { subscriptions: [{ name }] }));
      const id = channelId(org().server, name);
      const observers = [{ person: member }, { person: member2 }, { person: admin }, { person: moderator }];
      await replay(observers, () => member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [member2.id, moderator.id] }).then(ok));
      await replay(observers, () => member2.api.delete("/users/me/subscriptions", { subscriptions: [name] }).then(ok));
      // The guest is added by someone else, and now sees the channel.
      await replay([{ person: guest }, { person: member }], () => member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [guest.id] }).then(ok));
      await replay([{ person: member }], () =>
        member.api.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "is_muted", value: true }, { stream_id: id, property: "color", value: "#abcdef" }, { stream_id: id, property: "pin_to_top", value: true }] }).then(ok),
      );
    });

    test("a private channel: made private, people outside lose it; archived for old and new clients", async () => {
      const { member, member2, admin, guest } = org();
      const name = uniqueName("replay");
      ok(await member.api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [member.id, guest.id] }));
      const id = channelId(org().server, name);
      await replay([{ person: member }, { person: member2 }, { person: guest }, { person: admin }], () => admin.api.patch(`/streams/${id}`, { is_private: true, history_public_to_subscribers: false }).then(ok));
      await replay([{ person: member }, { person: member, params: LEGACY }, { person: admin }, { person: member2, unaware: true }], () => admin.api.delete(`/streams/${id}`).then(ok));
      await replay([{ person: member }, { person: member, params: LEGACY }], () => admin.api.patch(`/streams/${id}`, { is_archived: false }).then(ok));
    });
  });
}
