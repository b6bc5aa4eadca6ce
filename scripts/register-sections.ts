/**
 * Extracts from the Zulip API reference which top-level keys POST /register returns for each
 * fetch_event_types value, with each key's JSON type, into test/fixtures/register-sections.json.
 * test/events/registerSections.test.ts checks Parley's register against that file, and
 * re-extracts from the reference when it is at hand to fail on a fixture out of date.
 *
 *   bun scripts/register-sections.ts [path/to/zulip-openapi.yaml]
 *
 * The path defaults to ../shared/reference/zulip-openapi.yaml beside the repository. Each key
 * of the 200 response says "Present if `X` is present in `fetch_event_types`" (or "`X` and `Y`
 * are both present"); the few that say nothing are assigned below by name, and a new key that
 * says nothing and is not named there stops the extraction, so someone decides where it goes.
 */
import { join } from "node:path";

export type JsonType = "object" | "array" | "integer" | "number" | "string" | "boolean";

export interface RegisterKey {
  /** The fetch_event_types that must all be asked for; [] means every register carries it. */
  fetch: string[];
  types: JsonType[];
  nullable: boolean;
  /** Sent only to clients without this client capability (the legacy settings keys). */
  unlessCapability?: string;
  /** Sent only in some organizations (the reference names the condition). */
  conditional?: string;
}

export interface RegisterSections {
  /** Where these came from, so the file explains itself. */
  source: string;
  keys: Record<string, RegisterKey>;
}

export const REFERENCE_RELATIVE_PATH = "../shared/reference/zulip-openapi.yaml";
export const FIXTURE_RELATIVE_PATH = "test/fixtures/register-sections.json";

/** Keys that every register answer carries: the envelope and what identifies the server. */
const ALWAYS = new Set(["queue_id", "last_event_id", "zulip_feature_level", "zulip_version", "zulip_merge_base"]);
/** Part of the JSON envelope, not of the state. */
const ENVELOPE = new Set(["result", "msg", "ignored_parameters_unsupported"]);

/**
 * Keys whose description names no event type. The reference server builds the server_* and
 * realm_* ones in its `realm` section; drafts and receives_typing_notifications follow their
 * neighbours (drafts its own type, the other the legacy display settings).
 */
const UNSTATED: Record<string, string> = {
  drafts: "drafts",
  receives_typing_notifications: "update_display_settings",
  realm_date_created: "realm",
};
const UNSTATED_PREFIXES: Array<[string, string]> = [
  ["realm_", "realm"],
  ["server_", "realm"],
];

type Schema = Record<string, any>;

function resolve(root: Schema, schema: Schema): Schema {
  if (typeof schema.$ref !== "string") return schema;
  const path = schema.$ref.replace(/^#\//, "").split("/");
  return resolve(root, path.reduce((node: Schema, part: string) => node[part], root));
}

/** The JSON types a schema allows, through $ref, allOf, oneOf and anyOf. */
function typesOf(root: Schema, raw: Schema): { types: Set<JsonType>; nullable: boolean } {
  const schema = resolve(root, raw);
  const types = new Set<JsonType>();
  let nullable = schema.nullable === true;
  if (typeof schema.type === "string") types.add(schema.type as JsonType);
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) {
    const inner = typesOf(root, part);
    for (const type of inner.types) types.add(type);
    nullable ||= inner.nullable;
  }
  return { types, nullable };
}

/** Every description on the key, its allOf/oneOf parts included, as one line. */
function descriptionOf(schema: Schema): string {
  const parts = [schema, ...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return parts
    .map((part) => (typeof part.description === "string" ? part.description : ""))
    .join(" ")
    .replace(/\s+/g, " ");
}

function fetchOf(key: string, description: string): { fetch: string[]; conditional?: string } {
  if (ALWAYS.has(key)) return { fetch: [] };
  const both = /Present if `(\w+)` and `(\w+)` are both present in `(?:fetch_)?event_types`/.exec(description);
  if (both) return { fetch: [both[1], both[2]] };
  const one = /Present if `(\w+)` is present in `fetch_event_types`/.exec(description);
  if (one) return { fetch: [one[1]] };
  const other = /Present if ([^.`]*)\./.exec(description);
  if (other) {
    // Present only under a condition of the organization, not of the request: demo organizations.
    return { fetch: ["realm"], conditional: other[1].trim() };
  }
  if (key in UNSTATED) return { fetch: [UNSTATED[key]] };
  const prefix = UNSTATED_PREFIXES.find(([start]) => key.startsWith(start));
  if (prefix) return { fetch: [prefix[1]] };
  throw new Error(`register key ${key} names no fetch_event_types and is not assigned in scripts/register-sections.ts`);
}

/** The map of register keys from the reference's text. */
export function extractRegisterSections(yamlText: string): RegisterSections {
  const root = Bun.YAML.parse(yamlText) as Schema;
  const schema = root.paths["/register"].post.responses["200"].content["application/json"].schema;
  const properties: Record<string, Schema> = Object.assign({}, ...schema.allOf.map((part: Schema) => resolve(root, part).properties ?? {}));
  const keys: Record<string, RegisterKey> = {};
  for (const [key, raw] of Object.entries(properties)) {
    if (ENVELOPE.has(key)) continue;
    const description = descriptionOf(raw);
    const { types, nullable } = typesOf(root, raw);
    if (types.size === 0) throw new Error(`register key ${key} has no type in the reference`);
    const { fetch, conditional } = fetchOf(key, description);
    const entry: RegisterKey = { fetch, types: [...types].sort(), nullable };
    const capability = /only for clients that did not include `(\w+)` in their \[?`client_capabilities`/.exec(description);
    if (capability) entry.unlessCapability = capability[1];
    // Keys assigned by name (no "Present if") that sit among the legacy settings follow them.
    if (!capability && fetch[0] === "update_display_settings") entry.unlessCapability = "user_settings_object";
    if (conditional) entry.conditional = conditional;
    keys[key] = entry;
  }
  return { source: "zulip-openapi.yaml: POST /register, 200 response properties", keys };
}

/** One key a line, so a change in the reference shows as a one-line diff. */
export function formatFixture(sections: RegisterSections): string {
  const lines = Object.entries(sections.keys).map(([key, entry]) => `    ${JSON.stringify(key)}: ${JSON.stringify(entry)}`);
  return `{\n  "source": ${JSON.stringify(sections.source)},\n  "keys": {\n${lines.join(",\n")}\n  }\n}\n`;
}

if (import.meta.main) {
  const repo = join(import.meta.dir, "..");
  const yamlPath = process.argv[2] ?? join(repo, REFERENCE_RELATIVE_PATH);
  const sections = extractRegisterSections(await Bun.file(yamlPath).text());
  await Bun.write(join(repo, FIXTURE_RELATIVE_PATH), formatFixture(sections));
  const types = new Set(Object.values(sections.keys).flatMap((key) => key.fetch));
  console.log(`Wrote ${Object.keys(sections.keys).length} register keys of ${types.size} fetch_event_types to ${FIXTURE_RELATIVE_PATH}`);
}
