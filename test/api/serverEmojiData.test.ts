import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, uniqueName } from "../helpers/channels";
import { type Org, ok, seedOrg } from "../helpers/seed";
import { channelMessage, sendOk } from "../helpers/sending";
import { SEED_TIMEOUT_MS } from "../events/support";

/**
 * The server emoji data (register's server_emoji_data_url), read the way zulip-flutter reads it
 * (lib/api/route/realm.dart fetchServerEmojiData: an unauthenticated GET of the URL exactly as
 * given; ServerEmojiData.fromJson: `code_to_names`, a map of code to a list of names; and
 * lib/model/emoji.dart: the first name is the emoji's name, the rest aliases, the codes parse
 * with tryParseEmojiCodeToUnicode, and the six "popular" codes are looked up in it). Every
 * name it lists must be one the server accepts, or the app offers emoji that fail.
 */

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, SEED_TIMEOUT_MS);
afterAll(() => org.server.dispose());

async function emojiDataUrl(): Promise<string> {
  return ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] })).server_emoji_data_url;
}

/** zulip-flutter's tryParseEmojiCodeToUnicode: hex code points joined by "-". */
function tryParseEmojiCodeToUnicode(code: string): string | null {
  const points = code.split("-").map((hex) => (/^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : NaN));
  if (points.some((point) => Number.isNaN(point) || point > 0x10ffff)) return null;
  return String.fromCodePoint(...points);
}

/** ServerEmojiData.fromJson: anything else makes the app retry forever. */
function parseServerEmojiData(json: unknown): Map<string, string[]> {
  expect(typeof json).toBe("object");
  const codeToNames = (json as { code_to_names: unknown }).code_to_names;
  expect(codeToNames !== null && typeof codeToNames === "object" && !Array.isArray(codeToNames)).toBe(true);
  const parsed = new Map<string, string[]>();
  for (const [code, names] of Object.entries(codeToNames as Record<string, unknown>)) {
    expect(Array.isArray(names)).toBe(true);
    for (const name of names as unknown[]) expect(typeof name).toBe("string");
    parsed.set(code, names as string[]);
  }
  return parsed;
}

/**
 * The URL as given, on the test server: the organization's URL set at `parley init` names
 * the port a real deployment listens on, not this test server's.
 */
async function fetchData(): Promise<{ response: Response; data: Map<string, string[]> }> {
  const given = new URL(await emojiDataUrl());
  const response = await fetch(new URL(given.pathname + given.search, org.server.url));
  return { response, data: parseServerEmojiData(await response.clone().json()) };
}

describe("server_emoji_data_url", () => {
  test("register's realm section has it, absolute on the organization's URL, for every role", async () => {
    const url = await emojiDataUrl();
    const realmUrl = ok(await org.member.api.post("/register", { fetch_event_types: ["realm"] })).realm_url;
    expect(url).toMatch(new RegExp(`^${realmUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/static/generated/emoji/emoji_api\\.[0-9a-f]{16}\\.json$`));
    for (const person of [org.owner, org.guest, org.bot]) {
      expect(ok(await person.api.post("/register", { fetch_event_types: ["realm"] })).server_emoji_data_url).toBe(url);
    }
    // Every register that has the realm section has it (fetch_event_types omitted).
    expect(ok(await org.member.api.post("/register", {})).server_emoji_data_url).toBe(url);
  });

  test("it is served without credentials as JSON, cacheable for good; the plain name serves the same data", async () => {
    const { response, data } = await fetchData();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/json");
    expect(response.headers.get("cache-control")).toContain("immutable");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const plain = await fetch(new URL("/static/generated/emoji/emoji_api.json", org.server.url));
    expect(plain.status).toBe(200);
    expect(plain.headers.get("cache-control")).not.toContain("immutable");
    expect(parseServerEmojiData(await plain.json())).toEqual(data);
    const stale = await fetch(new URL("/static/generated/emoji/emoji_api.0000000000000000.json", org.server.url));
    expect(stale.status).toBe(404);
    await stale.text();
  });

  test("it parses as zulip-flutter parses it: every code to Unicode, names non-empty and each name under one code", async () => {
    const { data } = await fetchData();
    expect(data.size).toBeGreaterThan(1500);
    const owners = new Map<string, string>();
    for (const [code, names] of data) {
      expect(code).toMatch(/^[0-9a-f]+(-[0-9a-f]+)*$/);
      expect(code.split("-")).not.toContain("fe0f");
      expect(tryParseEmojiCodeToUnicode(code)).not.toBeNull();
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        expect(owners.get(name) ?? code).toBe(code);
        owners.set(name, code);
      }
    }
    // The app's popular emoji, and the names Zulip clients know them by.
    for (const [code, name] of [["1f44d", "+1"], ["1f389", "tada"], ["1f642", "smile"], ["2764", "heart"], ["1f6e0", "working_on_it"], ["1f419", "octopus"]]) {
      expect(data.get(code)?.[0]).toBe(name);
    }
  });

  test("every name it lists is accepted as a reaction, and means the code it is listed under", async () => {
    const { data } = await fetchData();
    const channel = uniqueName("emoji-data");
    await createChannel(org, org.member, {}, channel);
    const { id } = await sendOk(org.member, channelMessage(channel, "every emoji", "react with everything"));
    const refused: string[] = [];
    const entries = [...data];
    const worker = async () => {
      for (let entry = entries.pop(); entry !== undefined; entry = entries.pop()) {
        const [code, names] = entry;
        for (const name of names) {
          const added = await org.member.api.post(`/messages/${id}/reactions`, { emoji_name: name });
          if (added.status !== 200) {
            refused.push(`${name} (${code}): ${added.body.msg}`);
            continue;
          }
          // The name alone must have meant this code.
          const removed = await org.member.api.delete(`/messages/${id}/reactions`, { emoji_code: code, reaction_type: "unicode_emoji" });
          if (removed.status !== 200) refused.push(`${name} (${code}) was stored under another code`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(refused).toEqual([]);
    expect(queryServer(org.server, "SELECT 1 FROM reactions WHERE message_id = ?", id)).toEqual([]);
  }, 120_000);
});

describe("the :zulip: emoji's image", () => {
  test("is served where messages and reactions point, without credentials, as a 64×64 PNG", async () => {
    const rendered = ok(await org.member.api.post("/messages/render", { content: ":zulip:" })).rendered;
    const src = /<img[^>]+src="([^"]+)"/.exec(rendered)![1];
    const response = await fetch(new URL(src, org.server.url));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    const view = new DataView(bytes.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([64, 64]);
  });
});
