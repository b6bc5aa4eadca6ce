import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client";
import { ok, seedOrg, type Org, type Person } from "../../helpers/seed";
import { SEED_TIMEOUT_MS, pending, type Event, type State } from "../support";
import { APPLIERS, applyEvents } from "./appliers";
import { MODERN, SEEN_KINDS, comparable } from "./harness";
import { declaredEventKinds } from "./kinds";
import { alertAndMuteScenarios } from "./alertsAndMutes";
import { attachmentScenarios } from "./attachments";
import { channelScenarios } from "./channels";
import { inviteScenarios } from "./invites";
import { messageScenarios } from "./messages";
import { peopleScenarios } from "./people";
import { presenceScenarios } from "./presence";
import { realmScenarios } from "./realm";
import { realmEmojiScenarios } from "./realmEmoji";
import { scheduledMessageScenarios } from "./scheduledMessages";
import { userTopicScenarios } from "./userTopics";

/**
 * Every event kind replayed: snapshot + events = fresh snapshot, per area, for people of
 * different roles and clients of different ages. The last check holds the suite to the
 * source: each kind events/kinds declares needs an applier and a scenario that produced it.
 */

let org: Org;

beforeAll(async () => {
  // Heartbeats each second, so that one reaches a waiting client within the test.
  org = await seedOrg({ env: { PARLEY_HEARTBEAT_SECONDS: "1" } });
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

peopleScenarios(() => org);
presenceScenarios(() => org);
channelScenarios(() => org);
messageScenarios(() => org);
scheduledMessageScenarios(() => org);
inviteScenarios(() => org);
alertAndMuteScenarios(() => org);
userTopicScenarios(() => org);
realmEmojiScenarios(() => org);
attachmentScenarios(() => org);
realmScenarios(() => org);

/** Replays one client across what the registry itself sends: a heartbeat, then a restart. */
describe("queue events", () => {
  const expectReplayed = async (person: Person, snapshot: State, events: Event[]) => {
    const replayed = applyEvents(snapshot, events, SEEN_KINDS, true);
    expect(comparable(replayed)).toEqual(comparable(ok(await person.api.post("/register", MODERN))));
  };

  test("a heartbeat reaches a waiting client and changes nothing", async () => {
    const snapshot = ok(await org.member.api.post("/register", MODERN));
    const { events } = ok(await org.member.api.get("/events", { queue_id: snapshot.queue_id, last_event_id: -1 }));
    expect(events.map((event: Event) => event.type)).toEqual(["heartbeat"]);
    await expectReplayed(org.member, snapshot, events);
  });

  test("after a graceful restart the queue holds a restart event, and the state carries on", async () => {
    const snapshot = ok(await org.member.api.post("/register", MODERN));
    ok(await org.member.api.patch("/settings", { enter_sends: true }));
    await org.server.restart("SIGTERM");
    org.anon = new ApiClient(org.server.url);
    for (const role of ["owner", "admin", "moderator", "member", "member2", "guest", "bot"] as const) org[role] = { ...org[role], api: org.anon.as(org[role].email, org[role].apiKey) };
    const events = await pending(org.member, snapshot.queue_id);
    expect(events.map((event) => event.type)).toEqual(["user_settings", "restart"]);
    await expectReplayed(org.member, snapshot, events);
  });
});

/** Kinds the registry makes from declared ones for older clients, beyond the declared union. */
const DERIVED_KINDS = ["user_group remove"];

describe("coverage", () => {
  test("every declared event kind has an applier, and a scenario replayed it", () => {
    const declared = declaredEventKinds();
    expect(declared.length).toBeGreaterThan(30);
    const kinds = [...declared, ...DERIVED_KINDS];
    expect(kinds.filter((kind) => !(kind in APPLIERS))).toEqual([]);
    expect(Object.keys(APPLIERS).filter((kind) => !kinds.includes(kind))).toEqual([]);
    expect(kinds.filter((kind) => !SEEN_KINDS.has(kind))).toEqual([]);
  });
});
