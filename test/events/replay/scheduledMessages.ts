import { describe, test } from "bun:test";
import { createChannel } from "../../helpers/channels";
import { ok, type Org } from "../../helpers/seed";
import { replay } from "./harness";

/** Replays of scheduled messages: scheduled, edited, cancelled, delivered and failed, to their sender only. */
export function scheduledMessageScenarios(org: () => Org) {
  const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;
  const delivered = (id: number) => async () => {
    for (let tries = 0; tries < 100; tries++) {
      const listed = ok(await org().member.api.get("/scheduled_messages")).scheduled_messages as Array<{ scheduled_message_id: number; failed: boolean }>;
      const row = listed.find((each) => each.scheduled_message_id === id);
      if (!row || row.failed) return;
      await Bun.sleep(50);
    }
    throw new Error(`scheduled message ${id} was not tried`);
  };

  describe("scheduled messages", () => {
    test("scheduled, edited and cancelled, to their sender only", async () => {
      const { member, member2 } = org();
      let ids: number[] = [];
      await replay([{ person: member }, { person: member2, unaware: true }], async () => {
        const later = { type: "direct", to: JSON.stringify([member2.id]), scheduled_delivery_timestamp: inSeconds(7200) };
        ids = [ok(await member.api.post("/scheduled_messages", { ...later, content: "second" })).scheduled_message_id];
        ids.push(ok(await member.api.post("/scheduled_messages", { ...later, content: "first", scheduled_delivery_timestamp: inSeconds(3600) })).scheduled_message_id);
      });
      await replay([{ person: member }], async () => {
        ok(await member.api.patch(`/scheduled_messages/${ids[0]}`, { content: "now earliest", scheduled_delivery_timestamp: inSeconds(600) }));
        ok(await member.api.delete(`/scheduled_messages/${ids[1]}`));
      });
      await replay([{ person: member }], () => member.api.delete(`/scheduled_messages/${ids[0]}`).then(ok));
    });

    test("delivered when due: removed from the list, the message sent; a failure is marked and told", async () => {
      const { owner, member, member2 } = org();
      const id = ok(await member.api.post("/scheduled_messages", { type: "direct", to: JSON.stringify([member2.id]), content: "right on time", scheduled_delivery_timestamp: inSeconds(1) })).scheduled_message_id;
      await replay([{ person: member }, { person: member2 }], delivered(id));
      const channel = await createChannel(org(), owner, { principals: JSON.stringify([owner.id, member.id]) });
      const failing = ok(await member.api.post("/scheduled_messages", { type: "channel", to: channel, topic: "t", content: "too late", scheduled_delivery_timestamp: inSeconds(1) })).scheduled_message_id;
      ok(await owner.api.delete(`/streams/${channel}`));
      await replay([{ person: member }], delivered(failing));
    });
  });
}
