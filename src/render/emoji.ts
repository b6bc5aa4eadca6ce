/**
 * Emoji names and codes for the three reaction types (spec 2.4) and for `:name:` in messages.
 *
 * Unicode emoji come from emojibase-data: its iamcal short names (the Slack/GitHub set users
 * type: +1, tada, heart) and its CLDR names (thumbs_up, party_popper). A small table puts
 * Zulip's own names first where they differ, so Zulip clients' popular reactions and `:smile:`
 * mean what they mean there. Codes are Zulip's: lower-case hex codepoints joined by "-",
 * without the FE0F presentation selector. Skin-tone variants are left out, as Zulip does.
 */
import { readFileSync } from "node:fs";
// The datasets come in as files (in the compiled binary, files embedded in it) read once, when
// the tables are first needed: imported as JSON they were compiled into the program as object
// literals and kept, and the tables built at start, several MB before any client connected.
import cldrFile from "emojibase-data/en/shortcodes/cldr.json" with { type: "file" };
import iamcalFile from "emojibase-data/en/shortcodes/iamcal.json" with { type: "file" };

/** Zulip's names that differ from the datasets (canonical name first). */
const ZULIP_NAMES: Record<string, readonly string[]> = {
  "1f44d": ["+1", "thumbs_up", "like"],
  "1f642": ["smile"],
  "1f604": ["big_smile"],
  "1f641": ["frown"],
  "1f6e0": ["working_on_it", "hammer_and_wrench", "tools"],
  "1f384": ["holiday_tree"],
  "1f408": ["cat"],
  "1f415": ["dog"],
  "1f407": ["rabbit"],
  "1f916": ["robot"],
  "1f947": ["gold"],
  "1f95d": ["kiwi"],
  "2797": ["division"],
  "2b06": ["up"],
};

/** The built-in non-Unicode emoji (reaction_type svc_extra_emoji): name → emoji_code. */
const EXTRA_EMOJI: ReadonlyMap<string, string> = new Map([["zulip", "zulip"]]);

/** Where Zulip clients find the image of the built-in extra emoji. */
export const EXTRA_EMOJI_IMAGE_URL = "/static/generated/emoji/images/emoji/unicode/zulip.png";

const SKIN_TONE = /-?1f3f[b-f]/;
const INNER_HYPHEN = /[a-z0-9]-[a-z0-9]/i;

/** "1F44D-FE0F" (dataset hexcode) → "1f44d" (Zulip emoji_code). */
function normalizeHexcode(hexcode: string): string {
  return hexcode
    .toLowerCase()
    .split("-")
    .filter((part) => part !== "fe0f")
    .join("-");
}

function namesOf(entry: string | string[] | undefined): string[] {
  if (entry === undefined) return [];
  return typeof entry === "string" ? [entry] : entry;
}

function buildTables() {
  const candidates = new Map<string, string[]>();
  const add = (code: string, names: readonly string[]) => {
    if (SKIN_TONE.test(code)) return;
    const list = candidates.get(code) ?? [];
    list.push(...names);
    candidates.set(code, list);
  };
  for (const [code, names] of Object.entries(ZULIP_NAMES)) add(code, names);
  // TypeScript types a JSON import as its content; with type "file" it is the file's path.
  for (const file of [iamcalFile, cldrFile] as unknown as string[]) {
    const dataset = JSON.parse(readFileSync(file, "utf8")) as Record<string, string | string[]>;
    for (const [hexcode, entry] of Object.entries(dataset)) {
      add(normalizeHexcode(hexcode), namesOf(entry));
    }
  }
  // First claim on a name wins: Zulip's table, then iamcal, then CLDR.
  const nameToCode = new Map<string, string>();
  for (const [code, names] of candidates) {
    for (const name of names) if (!nameToCode.has(name)) nameToCode.set(name, code);
  }
  const codeToNames = new Map<string, string[]>();
  for (const [code, names] of candidates) {
    const own = [...new Set(names)].filter((name) => nameToCode.get(name) === code);
    // Zulip's names use "_"; iamcal writes some sequences as "woman-shrugging".
    const canonical = own.find((name) => !INNER_HYPHEN.test(name)) ?? own[0];
    if (canonical !== undefined) {
      codeToNames.set(code, [canonical, ...own.filter((name) => name !== canonical)]);
    }
  }
  return { nameToCode, codeToNames };
}

let tables: ReturnType<typeof buildTables> | null = null;
const unicodeTables = () => (tables ??= buildTables());

/** emoji_code of a Unicode emoji name (`smile` → `1f642`), if known. */
export function emojiCodeForName(name: string): string | undefined {
  return unicodeTables().nameToCode.get(name);
}

/** Canonical name of a Unicode emoji code (`1f44d` → `+1`), if known. */
export function emojiNameForCode(code: string): string | undefined {
  return unicodeTables().codeToNames.get(code)?.[0];
}

/** All names that denote this code (canonical first); empty when unknown. */
export function emojiNamesForCode(code: string): readonly string[] {
  return unicodeTables().codeToNames.get(code) ?? [];
}

/** Every Unicode emoji this server accepts: code → names, canonical first (the server emoji data). */
export function unicodeEmojiCodeToNames(): ReadonlyMap<string, readonly string[]> {
  return unicodeTables().codeToNames;
}

export function isKnownUnicodeEmoji(code: string): boolean {
  return unicodeTables().codeToNames.has(code);
}

/** emoji_code of a built-in extra emoji (`zulip` → `zulip`), if it is one. */
export function extraEmojiCodeForName(name: string): string | undefined {
  return EXTRA_EMOJI.get(name);
}

export function isExtraEmojiCode(code: string): boolean {
  return [...EXTRA_EMOJI.values()].includes(code);
}

const HEX_CODEPOINT = /^[0-9a-f]{1,6}$/;

/** "1f468-200d-1f4bb" → "👨‍💻"; undefined when the code is not well-formed hex codepoints. */
export function codepointsToUnicode(code: string): string | undefined {
  const parts = code.toLowerCase().split("-");
  if (!parts.every((part) => HEX_CODEPOINT.test(part))) return undefined;
  const codepoints = parts.map((part) => parseInt(part, 16));
  if (codepoints.some((cp) => cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) return undefined;
  return String.fromCodePoint(...codepoints);
}

/** "👨‍💻" → "1f468-200d-1f4bb" (FE0F dropped, as in emoji_code). */
export function unicodeToCode(emoji: string): string {
  return normalizeHexcode(
    Array.from(emoji, (ch) => ch.codePointAt(0)!.toString(16).padStart(4, "0")).join("-"),
  );
}
