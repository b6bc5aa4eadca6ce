import { describe, test } from "bun:test";
import { createPerson, ok, type Org } from "../../helpers/seed";
import { LEGACY, MODERN, replay } from "./harness";

/** A client on the modern presence API: slim snapshots and simplified presence events. */
const SIMPLIFIED = { ...MODERN, slim_presence: true, client_capabilities: { ...(MODERN.client_capabilities as object), simplified_presence_events: true } };

/** Presence events, in the legacy form (keyed by address) and the simplified one (keyed by ID). */
export function presenceScenarios(org: () => Org) {
  describe("presence", () => {
    test("a person comes online; a later ping tells nobody anything", async () => {
      const { owner, anon, member, member2, admin } = org();
      const person = await createPerson(owner, anon, "Presence Replay");
      await replay([{ person: member }, { person: member2, params: SIMPLIFIED }, { person: admin, params: LEGACY }, { person }], () =>
        person.api.post("/users/me/presence", { status: "active", ping_only: true }).then(ok),
      );
      await replay([{ person: member, unaware: true }, { person: member2, params: SIMPLIFIED, unaware: true }], () => person.api.post("/users/me/presence", { status: "idle" }).then(ok), { changes: false });
    });

    test("turning presence_enabled off and on again shows the person offline, then online", async () => {
      const { owner, anon, member, member2 } = org();
      const person = await createPerson(owner, anon, "Presence Hider");
      await person.api.post("/users/me/presence", { status: "active", ping_only: true }).then(ok);
      const observers = [{ person: member }, { person: member2, params: SIMPLIFIED }, { person, params: LEGACY }];
      await replay(observers, () => person.api.patch("/settings", { presence_enabled: false }).then(ok));
      await replay(observers, () => person.api.patch("/settings", { presence_enabled: true }).then(ok));
    });
  });
}
