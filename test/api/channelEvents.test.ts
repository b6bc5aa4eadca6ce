import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { channelId, setRealmSetting, subscribe, systemGroupId } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";

/*
 * Channel events over HTTP: after each action, every client's register snapshot with the
 * events applied must equal a fresh snapshot, for people of every role and for clients with
 * and without the archived_channels and notification_settings_null capabilities. Plus checks
 * of who must not hear of a change at all.
 */

const TYPES = ["subscription", "stream", "default_streams"];
type Capabilities = { notification_settings_null: boolean; archived_channels: boolean };
const MODERN: Capabilities = { notification_settings_null: true, archived_channels: true };
const LEGACY: Capabilities = { notification_settings_null: false, archived_channels: false };

type Channel = Record<string, any> & { stream_id: number; name: string };
interface Snapshot {
  subscriptions: Channel[];
  unsubscribed: Channel[];
  never_subscribed: Channel[];
  streams: Channel[];
  realm_default_streams: number[];
}

interface Client {
  person: Person;
  capabilities: Capabilities;
  queueId: string;
  lastEventId: number;
  state: Snapshot;
  /** Events fetched since the last check, for assertions about who heard what. */
  recent: Array<Record<string, any>>;
}

async function registerFor(person: Person, capabilities: Capabilities) {
  return ok(
    await person.api.post("/register", {
      event_types: TYPES,
      fetch_event_types: TYPES,
      include_subscribers: true,
      client_capabilities: capabilities,
    }),
  );
}

const pick = (body: Record<string, any>): Snapshot => ({
  subscriptions: body.subscriptions,
  unsubscribed: body.unsubscribed,
  never_subscribed: body.never_subscribed,
  streams: body.streams,
  realm_default_streams: body.realm_default_streams,
});

async function connect(person: Person, capabilities: Capabilities): Promise<Client> {
  const body = await registerFor(person, capabilities);
  return { person, capabilities, queueId: body.queue_id, lastEventId: body.last_event_id, state: pick(body), recent: [] };
}

async function drain(client: Client) {
  const { events } = ok(await client.person.api.get("/events", { queue_id: client.queueId, last_event_id: client.lastEventId, dont_block: true }));
  client.recent = events.filter((event: any) => event.type !== "heartbeat");
  for (const event of events) {
    client.lastEventId = Math.max(client.lastEventId, event.id);
    apply(client.state, event);
  }
}

const LISTS = ["subscriptions", "unsubscribed", "never_subscribed", "streams"] as const;
const without = (list: Channel[], ids: number[]) => list.filter((channel) => !ids.includes(channel.stream_id));

/** What a client does with each event, as the reference describes them. */
function apply(state: Snapshot, event: Record<string, any>) {
  if (event.type === "default_streams") state.realm_default_streams = event.default_streams;
  if (event.type === "stream" && event.op === "create") {
    for (const channel of event.streams as Channel[]) {
      if (!state.streams.some((s) => s.stream_id === channel.stream_id)) state.streams.push({ ...channel });
      const known = [...state.subscriptions, ...state.unsubscribed, ...state.never_subscribed].some((s) => s.stream_id === channel.stream_id);
      if (!known) state.never_subscribed.push({ ...channel, subscribers: [] });
    }
  }
  if (event.type === "stream" && event.op === "delete") {
    for (const list of LISTS) state[list] = without(state[list], event.stream_ids);
  }
  if (event.type === "stream" && event.op === "update") {
    for (const list of LISTS) {
      for (const channel of state[list].filter((s) => s.stream_id === event.stream_id)) {
        channel[event.property] = event.value;
        if (event.property === "description") channel.rendered_description = event.rendered_description;
        if (event.property === "invite_only") Object.assign(channel, { history_public_to_subscribers: event.history_public_to_subscribers, is_web_public: event.is_web_public });
      }
    }
  }
  if (event.type !== "subscription") return;
  const changed = event.stream_ids as number[] | undefined;
  switch (event.op) {
    case "add":
      for (const sub of event.subscriptions as Channel[]) {
        state.unsubscribed = without(state.unsubscribed, [sub.stream_id]);
        state.never_subscribed = without(state.never_subscribed, [sub.stream_id]);
        state.subscriptions.push({ ...sub });
      }
      break;
    case "remove":
      for (const { stream_id } of event.subscriptions) {
        const sub = state.subscriptions.find((s) => s.stream_id === stream_id)!;
        state.subscriptions = without(state.subscriptions, [stream_id]);
        state.unsubscribed.push(sub);
      }
      break;
    case "update":
      for (const sub of state.subscriptions.filter((s) => s.stream_id === event.stream_id)) sub[event.property] = event.value;
      break;
    case "peer_add":
    case "peer_remove":
      for (const list of ["subscriptions", "unsubscribed", "never_subscribed"] as const) {
        for (const channel of state[list].filter((s) => changed!.includes(s.stream_id))) {
          const ids = new Set(channel.subscribers as number[]);
          for (const id of event.user_ids) event.op === "peer_add" ? ids.add(id) : ids.delete(id);
          channel.subscribers = [...ids];
        }
      }
  }
}

/** The applied removal of the user's own ID from a left channel's subscribers happens via peer_remove. */
function normalized(state: Snapshot) {
  const tidy = (list: Channel[]) =>
    [...list]
      .map((channel) => ({ ...channel, ...(channel.subscribers ? { subscribers: [...channel.subscribers].sort((a, b) => a - b) } : {}) }))
      .sort((a, b) => a.stream_id - b.stream_id);
  return {
    subscriptions: tidy(state.subscriptions),
    unsubscribed: tidy(state.unsubscribed),
    never_subscribed: tidy(state.never_subscribed),
    streams: tidy(state.streams),
    realm_default_streams: [...state.realm_default_streams].sort((a, b) => a - b),
  };
}

let org: Org;
let clients: Client[];
const clientOf = (person: Person, capabilities = MODERN) => clients.find((c) => c.person === person && c.capabilities === capabilities)!;

/** Applies every client's new events and checks each against a fresh snapshot. */
async function expectConverged() {
  for (const client of clients) {
    await drain(client);
    const fresh = pick(await registerFor(client.person, client.capabilities));
    expect({ who: client.person.email, caps: client.capabilities, state: normalized(client.state) }).toEqual({
      who: client.person.email,
      caps: client.capabilities,
      state: normalized(fresh),
    });
  }
}

beforeAll(async () => {
  org = await seedOrg();
  setRealmSetting(org.server, "enable_spectator_access", true);
  clients = [];
  for (const person of [org.owner, org.admin, org.moderator, org.member, org.member2, org.guest, org.bot]) clients.push(await connect(person, MODERN));
  for (const person of [org.member, org.member2, org.guest]) clients.push(await connect(person, LEGACY));
}, 30_000);
afterAll(() => org.server.dispose());

const heard = (person: Person, capabilities = MODERN) => clientOf(person, capabilities).recent;
const mentions = (events: Array<Record<string, any>>, id: number) => JSON.stringify(events).includes(`"stream_id":${id}`) || events.some((e) => e.stream_ids?.includes(id));

describe("every client's state follows the events", () => {
  let alpha: number;
  let secret: number;

  test("creating a public channel", async () => {
    await subscribe(org.member, ["alpha"], {});
    ok(await org.member.api.patch(`/streams/${channelId(org.server, "alpha")}`, { description: "first" }));
    alpha = channelId(org.server, "alpha");
    await expectConverged();
    // Guests do not see public channels they are not in.
    expect(heard(org.guest)).toEqual([]);
    // The notification bot's creation notice becomes the channel's first message.
    expect(heard(org.member2).map((e) => `${e.type}/${e.op}/${e.property ?? ""}`)).toEqual([
      "stream/create/",
      "subscription/peer_add/",
      "stream/update/first_message_id",
      "stream/update/description",
    ]);
  });

  test("creating a private channel for someone else", async () => {
    await subscribe(org.member, ["secret"], { invite_only: true, principals: [org.member.id, org.member2.id] });
    secret = channelId(org.server, "secret");
    await expectConverged();
    expect(mentions(heard(org.moderator), secret)).toBe(false);
    expect(mentions(heard(org.guest), secret)).toBe(false);
    expect(mentions(heard(org.admin), secret)).toBe(true);
  });

  test("a guest joins a public channel", async () => {
    await subscribe(org.admin, ["alpha"], { principals: [org.guest.id] });
    await expectConverged();
    expect(heard(org.guest).map((e) => `${e.type}/${e.op}`)).toEqual(["stream/create", "subscription/add"]);
  });

  test("personal settings", async () => {
    ok(
      await org.member2.api.post("/users/me/subscriptions/properties", {
        subscription_data: [
          { stream_id: secret, property: "is_muted", value: true },
          { stream_id: secret, property: "pin_to_top", value: true },
          { stream_id: secret, property: "desktop_notifications", value: false },
          { stream_id: secret, property: "color", value: "#010203" },
        ],
      }),
    );
    await expectConverged();
    expect(heard(org.member2).map((e) => e.property)).toEqual(["in_home_view", "is_muted", "pin_to_top", "desktop_notifications", "color"]);
    expect(heard(org.member)).toEqual([]);
  });

  test("renaming and describing", async () => {
    ok(await org.member.api.patch(`/streams/${alpha}`, { new_name: "alpha-renamed", description: "second *take*" }));
    await expectConverged();
  });

  test("making a private channel public, then private again", async () => {
    ok(await org.member.api.patch(`/streams/${secret}`, { is_private: false }));
    await expectConverged();
    expect(heard(org.moderator).map((e) => `${e.type}/${e.op}`)).toEqual(["stream/create", "subscription/peer_add"]);
    ok(await org.member.api.patch(`/streams/${secret}`, { is_private: true }));
    await expectConverged();
    expect(heard(org.moderator).map((e) => `${e.type}/${e.op}`)).toEqual(["stream/delete"]);
  });

  test("default channels", async () => {
    ok(await org.admin.api.post("/default_streams", { stream_id: alpha }));
    await expectConverged();
    ok(await org.admin.api.delete("/default_streams", { stream_id: alpha }));
    await expectConverged();
  });

  test("group-settings, including ones that let someone see a private channel", async () => {
    ok(await org.member.api.patch(`/streams/${alpha}`, { can_send_message_group: { new: systemGroupId(org.server, "role:administrators") } }));
    await expectConverged();
    ok(await org.member.api.patch(`/streams/${secret}`, { can_subscribe_group: { new: { direct_members: [org.moderator.id], direct_subgroups: [] } } }));
    await expectConverged();
    expect(heard(org.moderator).map((e) => `${e.type}/${e.op}`)).toEqual(["stream/create", "subscription/peer_add"]);
    ok(await org.member.api.patch(`/streams/${secret}`, { can_subscribe_group: { new: systemGroupId(org.server, "role:nobody") } }));
    await expectConverged();
    expect(heard(org.moderator).map((e) => `${e.type}/${e.op}`)).toEqual(["stream/delete"]);
  });

  test("leaving a private channel, and being removed from a public one", async () => {
    ok(await org.member2.api.delete("/users/me/subscriptions", { subscriptions: ["secret"] }));
    await expectConverged();
    ok(await org.admin.api.delete("/users/me/subscriptions", { subscriptions: ["alpha-renamed"], principals: [org.guest.id] }));
    await expectConverged();
  });

  test("archiving and unarchiving", async () => {
    await subscribe(org.member, ["gamma"], { principals: [org.member.id, org.member2.id] });
    await expectConverged();
    const gamma = channelId(org.server, "gamma");
    ok(await org.admin.api.delete(`/streams/${gamma}`));
    await expectConverged();
    expect(heard(org.member2).map((e) => `${e.type}/${e.op}/${e.property ?? ""}`)).toEqual(["stream/update/is_archived"]);
    expect(heard(org.member2, LEGACY).map((e) => `${e.type}/${e.op}`)).toEqual(["stream/delete"]);
    ok(await org.admin.api.patch(`/streams/${gamma}`, { is_archived: false }));
    await expectConverged();
    expect(heard(org.member2).map((e) => `${e.type}/${e.op}/${e.property ?? ""}`)).toEqual(["stream/update/is_archived"]);
    // Clients that saw it deleted get the channel and their subscription back.
    expect(heard(org.member2, LEGACY).map((e) => `${e.type}/${e.op}`)).toEqual(["stream/create", "subscription/add"]);
    expect(heard(org.member2, LEGACY).some((e) => "for_unarchiving" in e)).toBe(false);
  });

  test("a web-public channel reaches guests too", async () => {
    await subscribe(org.owner, ["webby"], { is_web_public: true });
    await expectConverged();
    // Everyone may see who is in a web-public channel, guests included.
    expect(heard(org.guest).map((e) => `${e.type}/${e.op}/${e.property ?? ""}`)).toEqual(["stream/create/", "subscription/peer_add/", "stream/update/first_message_id"]);
  });

  test("without notification_settings_null, inherited notification settings arrive as booleans", async () => {
    const legacy = clientOf(org.member, LEGACY).state.subscriptions;
    expect(legacy.length).toBeGreaterThan(0);
    for (const sub of legacy) expect(typeof sub.push_notifications).toBe("boolean");
    expect(clientOf(org.member).state.subscriptions.some((sub) => sub.push_notifications === null)).toBe(true);
  });
});
