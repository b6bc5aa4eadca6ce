import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS, applyEvents, expectSameState, pending, register, type State } from "./support";

/**
 * The register contract: a snapshot plus every event its queue receives afterwards equals a
 * fresh snapshot, whatever happens meanwhile, including changes racing the register itself.
 */

let org: Org;

beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

interface Client {
  person: Person;
  params: Record<string, unknown>;
  snapshot: State;
}

async function connect(person: Person, params: Record<string, unknown> = {}): Promise<Client> {
  return { person, params, snapshot: await register(person, params) };
}

/** Replays a client's events on its snapshot and compares with what a new client would get. */
async function expectCaughtUp(client: Client) {
  const events = await pending(client.person, client.snapshot.queue_id);
  const known = new Set(client.snapshot.realm_users.map((user: { user_id: number }) => user.user_id));
  for (const event of events.filter((each) => each.type === "realm_user" && each.op === "add")) {
    // A user already in the snapshot and announced again would mean the change was seen twice.
    expect(known.has(event.person.user_id)).toBe(false);
    known.add(event.person.user_id);
  }
  expectSameState(applyEvents(client.snapshot, events), await register(client.person, client.params));
}

let counter = 0;
const newUser = () => {
  counter += 1;
  return org.owner.api.post("/users", { email: `racer${counter}@example.com`, password: "racer-password", full_name: `Racer ${counter}` }).then(ok);
};

describe("snapshot + events = fresh snapshot", () => {
  test("across new users, renames, role changes and settings, for clients of every kind", async () => {
    const clients = await Promise.all([
      connect(org.owner, { client_gravatar: false }),
      connect(org.member),
      connect(org.member, { client_capabilities: { user_settings_object: true } }),
      connect(org.guest),
      connect(org.bot),
    ]);
    const created = await newUser();
    ok(await org.owner.api.patch(`/users/${created.user_id}`, { full_name: "Racer Renamed", role: 300 }));
    ok(await org.owner.api.patch(`/users/${org.member2.id}`, { role: 600 }));
    ok(await org.member.api.patch("/settings", { full_name: "Mel Changed", timezone: "America/Denver", enter_sends: true, enable_sounds: false, email_address_visibility: 4 }));
    ok(await org.guest.api.patch("/settings", { color_scheme: 3 }));
    ok(await org.owner.api.patch(`/users/${org.member2.id}`, { role: 400 }));
    for (const client of clients) await expectCaughtUp(client);
  });

  test("with registrations racing many concurrent changes: nothing missed, nothing twice", async () => {
    const changes: Array<() => Promise<unknown>> = [];
    for (let i = 0; i < 8; i++) {
      changes.push(newUser);
      changes.push(() => org.owner.api.patch(`/users/${org.member2.id}`, { full_name: `Max Take ${i}` }).then(ok));
      changes.push(() => org.member.api.patch("/settings", { web_font_size_px: 12 + i, full_name: `Mel Take ${i}` }).then(ok));
      changes.push(() => org.owner.api.patch(`/users/${org.moderator.id}`, { role: i % 2 === 0 ? 400 : 300 }).then(ok));
    }
    const racing: Array<Promise<Client>> = [];
    const people = [org.owner, org.member, org.guest, org.admin];
    const work = changes.map(async (change, index) => {
      if (index % 3 === 0) racing.push(connect(people[index % people.length], index % 2 === 0 ? {} : { client_gravatar: false }));
      await change();
    });
    await Promise.all(work);
    const clients = await Promise.all(racing);
    expect(clients.length).toBeGreaterThan(5);
    for (const client of clients) await expectCaughtUp(client);
  });
});
