import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { extractRegisterSections, FIXTURE_RELATIVE_PATH, formatFixture, REFERENCE_RELATIVE_PATH, type JsonType, type RegisterSections } from "../../scripts/register-sections";
import { ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { SEED_TIMEOUT_MS, setRealmSettings, systemGroupId } from "./support";

/**
 * Every top-level key the reference says POST /register returns, for each fetch_event_types
 * value, is present with its type (test/fixtures/register-sections.json, written by
 * scripts/register-sections.ts from the reference). A section the reference adds and Parley
 * lacks fails here once the fixture is brought up to date, which the last test demands.
 */

const REPO = join(import.meta.dir, "../..");
const FIXTURE_PATH = join(REPO, FIXTURE_RELATIVE_PATH);
const REFERENCE_PATH = join(REPO, REFERENCE_RELATIVE_PATH);
const fixture: RegisterSections = JSON.parse(readFileSync(FIXTURE_PATH, "utf8"));

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

function jsonTypeOf(value: unknown): JsonType | "null" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

/** An integer is a number too, as in JSON Schema. */
const fits = (actual: JsonType | "null", types: JsonType[], nullable: boolean) =>
  actual === "null" ? nullable : types.includes(actual) || (actual === "integer" && types.includes("number"));

/** Keys this register must carry: their fetch types were all asked for (null: everything). */
function expectedKeys(fetched: string[] | null) {
  return Object.entries(fixture.keys).filter(
    ([, entry]) =>
      entry.conditional === undefined &&
      entry.unlessCapability === undefined &&
      entry.fetch.every((type) => fetched === null || fetched.includes(type)),
  );
}

/** Problems, one line each, so a failure lists every missing or mistyped key at once. */
function problems(state: Record<string, unknown>, fetched: string[] | null): string[] {
  const found: string[] = [];
  for (const [key, entry] of expectedKeys(fetched)) {
    if (!(key in state)) found.push(`${key}: missing (fetch ${entry.fetch.join(" + ") || "always"})`);
    else if (!fits(jsonTypeOf(state[key]), entry.types, entry.nullable)) {
      found.push(`${key}: ${jsonTypeOf(state[key])}, the reference says ${entry.types.join("|")}${entry.nullable ? " or null" : ""}`);
    }
  }
  return found;
}

const register = async (person: Person, params: Record<string, unknown>) => ok(await person.api.post("/register", params));

/** Each combination of fetch types a key needs: every single type, and unread_msgs' pair. */
const fetchSets = () => {
  const sets = new Map<string, string[]>();
  for (const entry of Object.values(fixture.keys)) {
    for (const type of entry.fetch) sets.set(type, [type]);
    if (entry.fetch.length > 1) sets.set(entry.fetch.join("+"), entry.fetch);
  }
  return [...sets.values()];
};

describe("register sections as the reference lists them", () => {
  test("the fixture lists the sections clients rely on", () => {
    // Guards against an extraction that quietly finds nothing.
    const types = new Set(Object.values(fixture.keys).flatMap((entry) => entry.fetch));
    for (const type of ["realm", "realm_user", "subscription", "message", "presence", "user_settings", "realm_emoji"]) expect(types).toContain(type);
    expect(Object.keys(fixture.keys).length).toBeGreaterThan(200);
  });

  test("each fetch_event_types value alone brings every key of its section, each of the right type", async () => {
    const failures: string[] = [];
    for (const fetched of fetchSets()) {
      for (const person of [org.member, org.admin]) {
        const state = await register(person, { fetch_event_types: fetched });
        for (const problem of problems(state, fetched)) failures.push(`[${fetched.join(", ")}] as ${person.email}: ${problem}`);
      }
    }
    expect(failures).toEqual([]);
  });

  test("with fetch_event_types omitted every key of every section is there", async () => {
    for (const person of [org.owner, org.guest]) expect(problems(await register(person, {}), null)).toEqual([]);
  });

  test("event_types stands in for an omitted fetch_event_types", async () => {
    const state = await register(org.member, { event_types: ["realm_emoji", "alert_words"] });
    expect(problems(state, ["realm_emoji", "alert_words"])).toEqual([]);
    expect(state.realm_users).toBeUndefined();
  });

  test("the legacy settings keys go only to clients without user_settings_object", async () => {
    const legacy = Object.entries(fixture.keys).filter(([, entry]) => entry.unlessCapability === "user_settings_object");
    expect(legacy.length).toBeGreaterThan(20);
    const fetched = ["update_display_settings", "update_global_notifications"];
    const old = await register(org.member, { fetch_event_types: fetched });
    const failures = legacy.filter(([key, entry]) => !(key in old) || !fits(jsonTypeOf(old[key]), entry.types, entry.nullable)).map(([key]) => key);
    expect(failures).toEqual([]);
    const modern = await register(org.member, { fetch_event_types: fetched, client_capabilities: { user_settings_object: true } });
    expect(legacy.map(([key]) => key).filter((key) => key in modern)).toEqual([]);
  });

  test("the deprecated policy enums report the group settings that replaced them, the widest value for a group no enum names", async () => {
    const realm = async () => register(org.member, { fetch_event_types: ["realm"] });
    const id = (name: string) => systemGroupId(org.server, name);
    expect(await realm()).toMatchObject({
      // The defaults: role:members, role:members, role:owners, role:administrators.
      realm_create_public_stream_policy: 1,
      realm_create_private_stream_policy: 1,
      realm_create_web_public_stream_policy: 7,
      realm_wildcard_mention_policy: 5,
      realm_can_set_topics_policy_group: id("role:members"),
    });
    setRealmSettings(org.server, {
      can_create_public_channel_group: id("role:moderators"),
      can_create_private_channel_group: id("role:fullmembers"),
      can_create_web_public_channel_group: id("role:nobody"),
      can_mention_many_users_group: id("role:everyone"),
    });
    expect(await realm()).toMatchObject({ realm_create_public_stream_policy: 4, realm_create_private_stream_policy: 3, realm_create_web_public_stream_policy: 6, realm_wildcard_mention_policy: 1 });
    setRealmSettings(org.server, {
      can_create_public_channel_group: id("role:everyone"),
      can_create_web_public_channel_group: id("role:members"),
      can_mention_many_users_group: id("role:owners"),
    });
    expect(await realm()).toMatchObject({ realm_create_public_stream_policy: 1, realm_create_web_public_stream_policy: 4, realm_wildcard_mention_policy: 1 });
  });

  test("server_supported_permission_settings describes every realm, channel and group permission setting", async () => {
    const { server_supported_permission_settings: supported } = await register(org.member, { fetch_event_types: ["realm"] });
    expect(Object.keys(supported).sort()).toEqual(["group", "realm", "stream"]);
    // Each setting's own rules, as PATCH /realm checks them (the reference's REALM_PERMISSION_GROUP_SETTINGS).
    expect(supported.realm.can_mention_many_users_group).toEqual({
      require_system_group: false,
      allow_internet_group: false,
      allow_nobody_group: true,
      allow_everyone_group: true,
      default_group_name: "role:administrators",
      default_for_system_groups: null,
      allowed_system_groups: [],
    });
    expect(supported.realm.can_create_web_public_channel_group).toMatchObject({
      require_system_group: true,
      allowed_system_groups: ["role:moderators", "role:administrators", "role:owners", "role:nobody"],
    });
    expect(supported.realm.can_manage_all_groups).toMatchObject({ allow_nobody_group: false, allow_everyone_group: false });
    expect(supported.stream.can_administer_channel_group.default_group_name).toBe("channel_creator");
    expect(supported.group.can_manage_group).toMatchObject({ default_group_name: "group_creator", default_for_system_groups: "role:nobody" });
    expect(supported.group.can_mention_group.default_for_system_groups).toBe("role:everyone");
  });

  test.skipIf(!existsSync(REFERENCE_PATH))("the fixture is what the reference says today (bun scripts/register-sections.ts rewrites it)", async () => {
    const current = formatFixture(extractRegisterSections(await Bun.file(REFERENCE_PATH).text()));
    expect(readFileSync(FIXTURE_PATH, "utf8")).toBe(current);
  });
});
