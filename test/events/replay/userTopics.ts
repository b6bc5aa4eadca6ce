import { describe, test } from "bun:test";
import { channelId, uniqueName } from "../../helpers/channels";
import { ok, type Org } from "../../helpers/seed";
import { channelMessage, sendOk } from "../../helpers/sending";
import { LEGACY, replay } from "./harness";

/** A client that keeps only the legacy muted_topics list (as zulip-terminal does). */
const MUTED_TOPICS_ONLY = { ...LEGACY, fetch_event_types: ["muted_topics"], event_types: ["muted_topics"] };

/** Replays of a user muting, following and unmuting topics, by the current and the legacy endpoint. */
export function userTopicScenarios(org: () => Org) {
  describe("topic visibility", () => {
    test("muted, followed and unmuted: user_topic for modern clients, the muted_topics list for old ones", async () => {
      const { member, member2 } = org();
      const name = uniqueName("topics");
      ok(await member.api.post("/users/me/subscriptions", { subscriptions: [{ name }] }));
      const id = channelId(org().server, name);
      await sendOk(member, channelMessage(name, "noise", "hello"));
      const observers = [{ person: member }, { person: member, params: MUTED_TOPICS_ONLY }, { person: member2, unaware: true }];
      await replay(observers, () => member.api.post("/user_topics", { stream_id: id, topic: "noise", visibility_policy: 1 }).then(ok));
      await replay(observers, async () => {
        ok(await member.api.post("/user_topics", { stream_id: id, topic: "news", visibility_policy: 3 }));
        ok(await member.api.patch("/users/me/subscriptions/muted_topics", { stream: name, topic: "quiet", op: "add" }));
      });
      await replay(observers, () => member.api.patch("/users/me/subscriptions/muted_topics", { stream_id: id, topic: "noise", op: "remove" }).then(ok));
    });
  });
}
