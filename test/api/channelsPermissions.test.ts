import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, isSubscribed, setRealmSetting } from "../helpers/channels";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";

/*
 * The permission matrix with default settings: six kinds of caller (owner, administrator,
 * moderator, member, guest, a member's bot) x public, private and web-public channels x
 * subscribed or not, for seeing a channel, joining it, adding and removing others, and
 * administering it. Channels are created by the owner, who therefore administers them.
 */

type Role = "owner" | "admin" | "moderator" | "member" | "guest" | "bot";
type Kind = "public" | "private" | "web-public";
const ROLES: Role[] = ["owner", "admin", "moderator", "member", "guest", "bot"];
const KINDS: Kind[] = ["public", "private", "web-public"];
const EVERYONE = ROLES;
const NON_GUESTS: Role[] = ["owner", "admin", "moderator", "member", "bot"];
const ADMINS: Role[] = ["owner", "admin"];

/** Who succeeds, by kind and by whether the caller is subscribed. */
type Expectation = Record<Kind, { subscribed: Role[]; unsubscribed: Role[] }>;

const SEES_CHANNEL: Expectation = {
  public: { subscribed: EVERYONE, unsubscribed: NON_GUESTS },
  private: { subscribed: EVERYONE, unsubscribed: ADMINS },
  "web-public": { subscribed: EVERYONE, unsubscribed: EVERYONE },
};
// Guests join only what they can already read (their channels, web-public ones); administrators
// have no content access to private channels (the owner here is subscribed as the creator).
const JOINS: Expectation = {
  public: { subscribed: EVERYONE, unsubscribed: NON_GUESTS },
  private: { subscribed: EVERYONE, unsubscribed: ["owner"] },
  "web-public": { subscribed: EVERYONE, unsubscribed: EVERYONE },
};
// The organization's can_add_subscribers_group is role:members by default; guests never add others.
const ADDS_OTHERS: Expectation = {
  public: { subscribed: NON_GUESTS, unsubscribed: NON_GUESTS },
  private: { subscribed: NON_GUESTS, unsubscribed: ["owner"] },
  "web-public": { subscribed: NON_GUESTS, unsubscribed: NON_GUESTS },
};
// can_remove_subscribers_group is role:administrators; administrators act as channel admins.
const REMOVES_OTHERS: Expectation = {
  public: { subscribed: ADMINS, unsubscribed: ADMINS },
  private: { subscribed: ADMINS, unsubscribed: ADMINS },
  "web-public": { subscribed: ADMINS, unsubscribed: ADMINS },
};
const ADMINISTERS = REMOVES_OTHERS;

let org: Org;
const person = (role: Role): Person => org[role];

beforeAll(async () => {
  org = await seedOrg();
  setRealmSetting(org.server, "enable_spectator_access", true);
}, 30_000);
afterAll(() => org.server.dispose());

/** A fresh channel of this kind by the owner, with member2 and (when asked) the caller in it. */
async function channel(kind: Kind, caller: Role, subscribed: boolean): Promise<number> {
  const principals = [org.owner.id, org.member2.id, ...(subscribed ? [person(caller).id] : [])];
  return createChannel(org, org.owner, { invite_only: kind === "private", is_web_public: kind === "web-public", principals });
}

const cases = KINDS.flatMap((kind) => [true, false].flatMap((subscribed) => ROLES.map((role) => ({ kind, subscribed, role }))));
const allowed = (table: Expectation, kind: Kind, subscribed: boolean, role: Role) => table[kind][subscribed ? "subscribed" : "unsubscribed"].includes(role);
const label = "%s channel, subscribed: %p, caller: %s";

describe("seeing a channel (GET /streams/{id})", () => {
  test.each(cases.map((c) => [c.kind, c.subscribed, c.role]))(label, async (kind, subscribed, role) => {
    const id = await channel(kind as Kind, role as Role, subscribed as boolean);
    const response = await person(role as Role).api.get(`/streams/${id}`);
    if (allowed(SEES_CHANNEL, kind as Kind, subscribed as boolean, role as Role)) expect(ok(response).stream.stream_id).toBe(id);
    else expectError(response, "BAD_REQUEST");
  });
});

describe("joining a channel", () => {
  test.each(cases.map((c) => [c.kind, c.subscribed, c.role]))(label, async (kind, subscribed, role) => {
    const caller = person(role as Role);
    const id = await channel(kind as Kind, role as Role, subscribed as boolean);
    const { name } = ok(await org.owner.api.get(`/streams/${id}`)).stream;
    const response = await caller.api.post("/users/me/subscriptions", { subscriptions: [{ name }] });
    if (allowed(JOINS, kind as Kind, subscribed as boolean, role as Role)) {
      ok(response);
      expect(await isSubscribed(caller, id)).toBe(true);
    } else {
      expectError(response, "BAD_REQUEST");
      expect(await isSubscribed(caller, id)).toBe(subscribed as boolean);
    }
  });
});

describe("adding someone else", () => {
  test.each(cases.map((c) => [c.kind, c.subscribed, c.role]))(label, async (kind, subscribed, role) => {
    const id = await channel(kind as Kind, role as Role, subscribed as boolean);
    const { name } = ok(await org.owner.api.get(`/streams/${id}`)).stream;
    const target = role === "moderator" ? org.member : org.moderator;
    const response = await person(role as Role).api.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [target.id] });
    if (allowed(ADDS_OTHERS, kind as Kind, subscribed as boolean, role as Role)) {
      ok(response);
      expect(ok(await org.owner.api.get(`/users/${target.id}/subscriptions/${id}`)).is_subscribed).toBe(true);
    } else {
      expectError(response, "BAD_REQUEST");
      expect(ok(await org.owner.api.get(`/users/${target.id}/subscriptions/${id}`)).is_subscribed).toBe(false);
    }
  });
});

describe("removing someone else", () => {
  test.each(cases.map((c) => [c.kind, c.subscribed, c.role]))(label, async (kind, subscribed, role) => {
    const id = await channel(kind as Kind, role as Role, subscribed as boolean);
    const { name } = ok(await org.owner.api.get(`/streams/${id}`)).stream;
    const response = await person(role as Role).api.delete("/users/me/subscriptions", { subscriptions: [name], principals: [org.member2.id] });
    const stillIn = ok(await org.owner.api.get(`/users/${org.member2.id}/subscriptions/${id}`)).is_subscribed;
    if (allowed(REMOVES_OTHERS, kind as Kind, subscribed as boolean, role as Role)) {
      expect(ok(response).removed).toEqual([name]);
      expect(stillIn).toBe(false);
    } else {
      expectError(response, "BAD_REQUEST");
      expect(stillIn).toBe(true);
    }
  });
});

describe("administering (PATCH /streams/{id})", () => {
  test.each(cases.map((c) => [c.kind, c.subscribed, c.role]))(label, async (kind, subscribed, role) => {
    const id = await channel(kind as Kind, role as Role, subscribed as boolean);
    const response = await person(role as Role).api.patch(`/streams/${id}`, { description: `by ${role}` });
    const description = ok(await org.owner.api.get(`/streams/${id}`)).stream.description;
    if (allowed(ADMINISTERS, kind as Kind, subscribed as boolean, role as Role)) {
      ok(response);
      expect(description).toBe(`by ${role}`);
      return;
    }
    expectError(response, "BAD_REQUEST");
    expect(description).toBe("");
    // Only those who could read the channel learn that it exists.
    const canRead = allowed(JOINS, kind as Kind, subscribed as boolean, role as Role) || (subscribed as boolean) || kind === "web-public";
    expect(response.body.msg).toBe(canRead ? "You do not have permission to administer this channel." : "Invalid channel ID");
  });
});
