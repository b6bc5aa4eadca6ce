import { signal } from "@preact/signals";
import { realm, realmEmoji } from "../state/store";

/**
 * The emoji names the server knows, for autocomplete and the picker. The full list (~70 KB of
 * JSON) is fetched from the register's server_emoji_data_url on first need, never bundled:
 * this module is in the first load (the compose box imports it). Until it arrives, search
 * still answers from the popular set below and the organization's own emoji.
 */

export interface EmojiChoice {
  name: string;
  code: string;
  type: "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";
  url?: string;
}

interface UnicodeEntry {
  code: string;
  /** Canonical name first, then aliases. */
  names: string[];
}

/** Zulip's popular reactions, then other everyday ones; codes as the server writes them (no FE0F). */
const POPULAR: UnicodeEntry[] = (
  [
    ["+1", "1f44d"], ["tada", "1f389"], ["smile", "1f642"], ["heart", "2764"], ["working_on_it", "1f6e0"], ["octopus", "1f419"],
    ["joy", "1f602"], ["big_smile", "1f604"], ["eyes", "1f440"], ["fire", "1f525"], ["pray", "1f64f"], ["clap", "1f44f"],
    ["rocket", "1f680"], ["white_check_mark", "2705"], ["thinking_face", "1f914"], ["-1", "1f44e"],
  ] as const
).map(([name, code]) => ({ code, names: [name] }));

const POPULAR_RANK = new Map(POPULAR.map((entry, index) => [entry.code, index]));

/** The one built-in emoji that is no Unicode character. */
const ZULIP: EmojiChoice = { name: "zulip", code: "zulip", type: "zulip_extra_emoji" };

export const emojiReady = signal(false);
let unicode: UnicodeEntry[] = POPULAR;
let loading: Promise<void> | null = null;

/** Fetches the server's emoji data once; a failed try is forgotten so a later call tries again. */
export function loadEmoji(): Promise<void> {
  loading ??= fetchEmojiData().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function fetchEmojiData() {
  const url = realm.value.emojiDataUrl;
  if (!url) throw new Error("The server named no emoji data");
  // The URL is on the organization's configured address; the page may only connect to its own origin.
  const { pathname, search } = new URL(url, location.href);
  const response = await fetch(pathname + search, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`Emoji data: HTTP ${response.status}`);
  takeEmojiData(await response.json());
}

/** Installs `{"code_to_names": {code: [names]}}` (exported for tests, which have no server). */
export function takeEmojiData(data: unknown) {
  const table = (data as { code_to_names?: unknown } | null)?.code_to_names;
  if (!table || typeof table !== "object") throw new Error("Emoji data without code_to_names");
  const entries: UnicodeEntry[] = [];
  for (const [code, names] of Object.entries(table as Record<string, unknown>)) {
    if (Array.isArray(names) && names.length > 0 && names.every((name) => typeof name === "string")) entries.push({ code, names });
  }
  unicode = entries.sort((a, b) => blockRank(a.code) - blockRank(b.code) || firstCodepoint(a.code) - firstCodepoint(b.code));
  emojiReady.value = true;
}

const firstCodepoint = (code: string) => parseInt(code, 16) || 0;

/** Faces and people first, then things and symbols, a rough stand-in for the usual picker order. */
const BLOCKS: Array<[number, number]> = [
  [0x1f600, 0x1f64f], [0x1f910, 0x1f9ff], [0x1f440, 0x1f4ff], [0x1f300, 0x1f43f], [0x1f500, 0x1f5ff], [0x1f680, 0x1f6ff], [0x1fa70, 0x1faff], [0x2600, 0x27bf],
];
function blockRank(code: string): number {
  const first = firstCodepoint(code);
  const index = BLOCKS.findIndex(([from, to]) => first >= from && first <= to);
  return index === -1 ? BLOCKS.length : index;
}

/** Every emoji with its canonical name: popular first, then the rest (only the popular ones until loaded). */
export function allEmoji(): EmojiChoice[] {
  emojiReady.value; // read, so a view calling this redraws when the data arrives
  const popular = POPULAR.map((entry) => unicodeChoice(entry));
  const rest = unicode.filter((entry) => !POPULAR_RANK.has(entry.code)).map((entry) => unicodeChoice(entry));
  return [...popular, ...activeRealmEmoji(), ZULIP, ...rest];
}

const unicodeChoice = (entry: UnicodeEntry, name = entry.names[0]): EmojiChoice => ({ name, code: entry.code, type: "unicode_emoji" });

function activeRealmEmoji(): EmojiChoice[] {
  return Object.values(realmEmoji.value)
    .filter((emoji) => !emoji.deactivated)
    .map((emoji) => ({ name: emoji.name, code: emoji.id, type: "realm_emoji" as const, url: ownOriginUrl(emoji.source_url) }));
}

/**
 * An image URL on the organization's configured address, as a path on the page's own origin
 * (the address the server believes it has may not be the one the browser used).
 */
export function ownOriginUrl(url: string): string {
  if (url.startsWith("/")) return url;
  try {
    const parsed = new URL(url);
    const home = new URL(realm.value.url || location.href);
    return parsed.origin === home.origin ? parsed.pathname + parsed.search : url;
  } catch {
    return url;
  }
}

/** How well a name matches: 0 exact, 1 prefix, 2 a word's prefix, 3 anywhere, -1 not at all. */
function matchRank(name: string, query: string): number {
  const at = name.indexOf(query);
  if (at === -1) return -1;
  if (at === 0) return name.length === query.length ? 0 : 1;
  return name.includes(`_${query}`) || name.includes(`-${query}`) ? 2 : 3;
}

/** What a person typed after ":" (or in the picker's search) as a name fragment. */
const normalize = (query: string) => query.trim().toLowerCase().replace(/^:+|:+$/g, "").replace(/\s+/g, "_");

/**
 * Emoji whose names match, best first: exact, prefix, word prefix, substring; within each,
 * popular ones, then shorter names. One result per emoji, under its best-matching name. Starts
 * loading the full data if it is not in yet (reading `emojiReady`, so a view redraws when it is).
 */
export function searchEmoji(query: string, limit = 8): EmojiChoice[] {
  if (!emojiReady.value) void loadEmoji().catch(() => {});
  const wanted = normalize(query);
  if (!wanted) return POPULAR.slice(0, limit).map((entry) => unicodeChoice(entry));
  const custom = activeRealmEmoji();
  // An organization's emoji wins over a Unicode one of the same name, as the server renders it.
  const taken = new Set(custom.map((emoji) => emoji.name));
  const found: Array<{ choice: EmojiChoice; rank: number; popular: number }> = [];
  for (const choice of [...custom, ZULIP]) {
    const rank = matchRank(choice.name.toLowerCase(), wanted);
    if (rank !== -1) found.push({ choice, rank, popular: choice.type === "realm_emoji" ? -1 : Infinity });
  }
  for (const entry of unicode) {
    let best = -1;
    let bestName = "";
    for (const name of entry.names) {
      if (taken.has(name)) continue;
      const rank = matchRank(name, wanted);
      if (rank !== -1 && (best === -1 || rank < best)) [best, bestName] = [rank, name];
    }
    if (best !== -1) found.push({ choice: unicodeChoice(entry, bestName), rank: best, popular: POPULAR_RANK.get(entry.code) ?? Infinity });
  }
  found.sort(
    (a, b) => a.rank - b.rank || a.popular - b.popular || a.choice.name.length - b.choice.name.length || (a.choice.name < b.choice.name ? -1 : a.choice.name > b.choice.name ? 1 : 0),
  );
  return found.slice(0, limit).map((item) => item.choice);
}

const HEX = /^[0-9a-f]{1,6}$/i;
// Characters that are text by default (❤, ✔, digits before a keycap) look like emoji only with FE0F after them.
const TEXT_BY_DEFAULT = /^(?=\p{Emoji})\P{Emoji_Presentation}$/u;
const charCache = new Map<string, string>();

/**
 * "1f44d" or "1f468-200d-1f4bb" → the Unicode string, with the FE0F selectors the codes leave
 * out put back so browsers draw an emoji and not a text symbol. "" for a malformed code.
 */
export function emojiChar(code: string): string {
  let text = charCache.get(code);
  if (text !== undefined) return text;
  const parts = code.split("-");
  const points = parts.map((part) => (HEX.test(part) ? parseInt(part, 16) : -1));
  if (points.some((point) => point < 0 || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff))) return "";
  text = "";
  points.forEach((point, index) => {
    const char = String.fromCodePoint(point);
    const next = points[index + 1] ?? 0;
    text += char;
    const modified = next === 0xfe0f || (next >= 0x1f3fb && next <= 0x1f3ff);
    if (!modified && TEXT_BY_DEFAULT.test(char)) text += "\uFE0F";
  });
  charCache.set(code, text);
  return text;
}
