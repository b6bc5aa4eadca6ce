import { describe, expect, test } from "bun:test";
import { ok, type Org, type Person } from "../../helpers/seed";
import { uploadFile } from "../../helpers/uploads";
import type { Event, State } from "../support";
import { APPLIERS, kindOf } from "./appliers";
import { SEEN_KINDS, replay } from "./harness";

/**
 * Uploads: register has no section for them, so besides the usual replay (the messages that
 * link them), each owner's attachment events are applied to their GET /attachments list from
 * before the action, and must give the list after it.
 */
export function attachmentScenarios(org: () => Org) {
  const listOf = async (person: Person): Promise<State> => {
    const { attachments, upload_space_used } = ok(await person.api.get("/attachments"));
    return { attachments, upload_space_used };
  };

  /** Runs `act` under replay and checks the owner's attachment events against GET /attachments. */
  async function replayUploads(owner: Person, others: Person[], act: () => Promise<unknown>, changes = true) {
    const before = await listOf(owner);
    const results = await replay([{ person: owner }, ...others.map((person) => ({ person }))], act, { changes });
    const ownEvents = results[0]!.events.filter((event: Event) => event.type === "attachment");
    expect(ownEvents.length, "no attachment event reached the owner").toBeGreaterThan(0);
    for (const result of results.slice(1)) expect(result.events.filter((event: Event) => event.type === "attachment")).toEqual([]);
    const replayed = structuredClone(before);
    for (const event of ownEvents) APPLIERS[kindOf(event)]!(replayed, event);
    for (const event of ownEvents) SEEN_KINDS.add(kindOf(event));
    const byId = (state: State) => ({ ...state, attachments: [...state.attachments].sort((a: State, b: State) => a.id - b.id) });
    expect(byId(replayed)).toEqual(byId(await listOf(owner)));
  }

  describe("uploads", () => {
    test("uploaded, linked by a message, relinked by an edit, released by its deletion, deleted", async () => {
      const { member, member2 } = org();
      let first = "";
      let second = "";
      let messageId = 0;
      // Only the owner hears of an upload; the register state is unchanged by it.
      await replayUploads(member, [], async () => {
        first = await uploadFile(org(), member, "first.png");
        second = await uploadFile(org(), member, "second.txt");
      }, false);
      await replayUploads(member, [member2], async () => {
        messageId = ok(await member.api.post("/messages", { type: "direct", to: JSON.stringify([member2.id]), content: `[first.png](${first})` })).id;
      });
      // Register keeps no message content: an edit changes the uploads' lists only.
      await replayUploads(member, [member2], () => member.api.patch(`/messages/${messageId}`, { content: `now [second.txt](${second})` }).then(ok), false);
      // Not the conversation's newest message, whose deletion no client can follow (as in messages.ts).
      ok(await member.api.post("/messages", { type: "direct", to: JSON.stringify([member2.id]), content: "newest, kept" }));
      await replayUploads(member, [member2], () => member.api.delete(`/messages/${messageId}`).then(ok));
      const firstId = (await listOf(member)).attachments.find((each: State) => first.endsWith(each.path_id)).id;
      await replayUploads(member, [], () => member.api.delete(`/attachments/${firstId}`).then(ok), false);
    });
  });
}
