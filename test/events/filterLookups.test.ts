import { describe, expect, test } from "bun:test";
import type { Emitted } from "../../src/db/types";
import { addLookups, eventLookups, eventsForQueue, type FilterContext, type Lookups, shapeStore } from "../../src/events/filters";
import type { ClientCapability, QueueSpec } from "../../src/events/spec";
import type { AnyEvent } from "../../src/events/types";
import { defaultUserSettings } from "../../src/model/userSettings";
import { queueSpec } from "./queueSpec";

/**
 * Filters run synchronously, so publish reads what they will look up before delivering
 * (events/registry.ts): eventLookups and addLookups must name every lookup eventsForQueue makes,
 * for every event kind that makes one and every client, and nothing for an ordinary message.
 */

const USER_ID = 7;

const topicMessage = (subject: string) => ({
  type: "message",
  message: { id: 100, type: "stream", display_recipient: "Denmark", stream_id: 3, subject, sender_id: 9, sender_email: "a@example.com", content: "hi", rendered_content: "<p>hi</p>" },
});

const EVENTS: Array<Record<string, unknown>> = [
  topicMessage("castle"),
  topicMessage(""),
  { ...topicMessage(""), message: { ...topicMessage("").message, type: "private", display_recipient: [{ id: 7 }], stream_id: undefined } },
  { type: "typing", op: "start", stream_id: 3, topic: "" },
  { type: "update_message", message_id: 1, subject: "", orig_subject: "old", flags: [] },
  { type: "delete_message", message_ids: [1, 2], message_type: "stream", stream_id: 3, topic: "" },
  { type: "user_topic", stream_id: 3, topic_name: "", visibility_policy: 1, last_updated: 1 },
  { type: "update_message_flags", op: "remove", flag: "read", messages: [1], all: false, message_details: { 1: { type: "stream", stream_id: 3, topic: "" } } },
  { type: "update_message_flags", op: "remove", flag: "read", messages: [1], all: false, message_details: { 1: { type: "stream", stream_id: 3, topic: "castle" } } },
  { type: "muted_topics", muted_topics: [["Denmark", "", 1]] },
  { type: "muted_topics", muted_topics: [["Denmark", "castle", 1]] },
  { type: "subscription", op: "add", subscriptions: [{ stream_id: 3, name: "Denmark", is_archived: false, desktop_notifications: null }] },
  { type: "subscription", op: "update", stream_id: 3, property: "desktop_notifications", value: null },
  { type: "subscription", op: "update", stream_id: 3, property: "color", value: "#fff" },
  { type: "subscription", op: "peer_add", stream_ids: [3], user_ids: [8] },
  { type: "user_group", op: "add", group: { id: 30 } },
  { type: "user_group", op: "update", group_id: 30, data: { deactivated: true } },
  { type: "user_group", op: "update", group_id: 30, data: { deactivated: false } },
  { type: "user_group", op: "update", group_id: 31, data: { name: "renamed" } },
  { type: "user_group", op: "add_members", group_id: 31, user_ids: [8] },
];

const CAPABILITIES: ClientCapability[][] = [[], ["empty_topic_name", "notification_settings_null", "include_deactivated_groups", "archived_channels"]];
const SPECS: QueueSpec[] = [
  ...CAPABILITIES.map((capabilities) => queueSpec({}, capabilities)),
  queueSpec({ eventTypes: ["message"] }),
  queueSpec({ eventTypes: ["muted_topics", "user_topic"] }),
];

/** The lookups one delivery makes, recorded. */
function lookupsMadeBy(addressed: Emitted, spec: QueueSpec): Lookups {
  const made: Lookups = { emptyTopicDisplayName: false, userSettings: new Set(), userGroups: new Set() };
  const context: FilterContext = {
    emptyTopicDisplayName: () => ((made.emptyTopicDisplayName = true), "general chat"),
    userSettings: (userId) => (made.userSettings.add(userId), defaultUserSettings()),
    userGroup: (groupId) => (made.userGroups.add(groupId), { id: groupId, name: "designers", deactivated: groupId === 31 } as never),
    sharedShape: shapeStore(),
  };
  eventsForQueue(addressed, { queueId: "q1", userId: USER_ID, spec, recipient: true }, context);
  return made;
}

function lookupsNamedFor(addressed: Emitted, spec: QueueSpec): Lookups {
  const wanted: Lookups = { emptyTopicDisplayName: false, userSettings: new Set(), userGroups: new Set() };
  const asks = eventLookups(addressed);
  if (asks) addLookups(asks, { spec, userId: USER_ID }, wanted);
  return wanted;
}

describe("the lookups publish reads before delivering", () => {
  test("cover every lookup the filters make, for every event and client", () => {
    let made = 0;
    for (const event of EVENTS) {
      const addressed: Emitted = { event: event as unknown as AnyEvent, userIds: [USER_ID] };
      for (const spec of SPECS) {
        const used = lookupsMadeBy(addressed, spec);
        const named = lookupsNamedFor(addressed, spec);
        const where = `${JSON.stringify(event)} to ${JSON.stringify(spec.eventTypes)} ${JSON.stringify(spec.capabilities)}`;
        if (used.emptyTopicDisplayName) expect(named.emptyTopicDisplayName, where).toBe(true);
        for (const userId of used.userSettings) expect(named.userSettings.has(userId), where).toBe(true);
        for (const groupId of used.userGroups) expect(named.userGroups.has(groupId), where).toBe(true);
        made += Number(used.emptyTopicDisplayName) + used.userSettings.size + used.userGroups.size;
      }
    }
    // The cases above do make lookups of every kind, so the test checks something.
    expect(made).toBeGreaterThan(10);
  });

  test("an ordinary message, and events that need no current state, ask for nothing", () => {
    for (const event of [topicMessage("castle"), { type: "subscription", op: "peer_add", stream_ids: [3], user_ids: [8] }, { type: "user_group", op: "add", group: { id: 30 } }]) {
      expect(eventLookups({ event: event as unknown as AnyEvent, userIds: [USER_ID] })).toBeNull();
    }
  });

  test("a client that needs no lookup gets none read for it", () => {
    const modern = queueSpec({}, CAPABILITIES[1]);
    for (const event of EVENTS) expect(lookupsNamedFor({ event: event as unknown as AnyEvent, userIds: [USER_ID] }, modern)).toEqual({ emptyTopicDisplayName: false, userSettings: new Set(), userGroups: new Set() });
  });
});
