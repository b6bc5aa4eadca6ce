import { describe, expect, test } from "bun:test";
import { emojiCodeForName, emojiNamesForCode, unicodeEmojiCodeToNames, unicodeToCode } from "../../src/render/emoji";
import { serverEmojiData } from "../../src/render/serverEmojiData";
import { allEmoji, emojiChar, emojiReady, searchEmoji, takeEmojiData } from "../../src/web/client/chat/emoji/data";
import { realmEmoji } from "../../src/web/client/chat/state/store";

/**
 * The chat's emoji logic against the server's own emoji table: the client hard-codes a popular
 * set and turns codes into characters, and both must agree with what the server accepts.
 * Order matters: the first block runs before the data is "loaded", the rest after.
 */

const names = (choices: Array<{ name: string }>) => choices.map((choice) => choice.name);
const custom = (id: string, name: string, deactivated = false) => ({ id, name, source_url: `/user_avatars/2/emoji/images/${id}.png`, deactivated });

describe("emoji characters", () => {
  test("codes become their Unicode strings", () => {
    expect(emojiChar("1f44d")).toBe("👍");
    expect(emojiChar("1f468-200d-1f4bb")).toBe("👨‍💻");
    expect(emojiChar("1f1e9-1f1ea")).toBe("🇩🇪");
  });

  test("text-by-default characters get the emoji selector the codes leave out", () => {
    expect(emojiChar("2764")).toBe("❤\uFE0F");
    expect(emojiChar("0023-20e3")).toBe("#\uFE0F\u20E3");
    expect(emojiChar("1f3f3-200d-1f308")).toBe("🏳\uFE0F\u200D🌈");
    expect(emojiChar("261d-1f3fb")).toBe("☝🏻");
  });

  test("malformed codes give nothing", () => {
    for (const code of ["zulip", "", "110000", "d800", "1f44d-", "1f44dzz", "1f44d-zz"]) expect(emojiChar(code)).toBe("");
  });

  test("every code the server knows turns into a character that maps back to it", () => {
    for (const code of unicodeEmojiCodeToNames().keys()) expect(unicodeToCode(emojiChar(code))).toBe(code);
  });
});

describe("search before the data is in", () => {
  test("an empty query gives the popular set, +1 first, each name and code as the server has them", () => {
    realmEmoji.value = {};
    expect(emojiReady.value).toBe(false);
    const popular = searchEmoji("", 100);
    expect(popular.length).toBeGreaterThanOrEqual(12);
    expect(names(popular).slice(0, 4)).toEqual(["+1", "tada", "smile", "heart"]);
    for (const choice of popular) {
      expect(choice.type).toBe("unicode_emoji");
      expect(emojiCodeForName(choice.name)).toBe(choice.code);
      expect(emojiNamesForCode(choice.code)[0]).toBe(choice.name);
    }
    expect(searchEmoji("")).toHaveLength(8);
  });

  test("popular, custom and the built-in zulip emoji are found", () => {
    realmEmoji.value = { "7": custom("7", "party_parrot"), "8": custom("8", "old_logo", true) };
    expect(names(searchEmoji("ta"))).toContain("tada");
    expect(searchEmoji("zul")).toEqual([{ name: "zulip", code: "zulip", type: "zulip_extra_emoji" }]);
    expect(searchEmoji("parrot")).toEqual([{ name: "party_parrot", code: "7", type: "realm_emoji", url: "/user_avatars/2/emoji/images/7.png" }]);
    expect(searchEmoji("old_logo")).toEqual([]);
  });
});

describe("search with the server's data", () => {
  test("the data installs and marks the emoji ready", () => {
    takeEmojiData(JSON.parse(serverEmojiData().json));
    expect(emojiReady.value).toBe(true);
  });

  test("exact, then prefix, then word prefix, then anywhere", () => {
    realmEmoji.value = {};
    const found = names(searchEmoji("smile", 50));
    expect(found[0]).toBe("smile");
    const firstWordPrefix = found.findIndex((name) => !name.startsWith("smile"));
    expect(firstWordPrefix).toBeGreaterThan(0);
    expect(found.slice(0, firstWordPrefix).every((name) => name.startsWith("smile"))).toBe(true);
    const firstSubstring = found.findIndex((name) => !name.startsWith("smile") && !/[_-]smile/.test(name));
    if (firstSubstring !== -1) expect(found.slice(firstSubstring).every((name) => !/[_-]smile/.test(name) && !name.startsWith("smile"))).toBe(true);
    expect(found.slice(firstWordPrefix, firstSubstring === -1 ? undefined : firstSubstring).every((name) => /[_-]smile/.test(name))).toBe(true);
  });

  test("one result per emoji, under the name that matched", () => {
    const found = searchEmoji("thumbs", 20);
    expect(found.find((choice) => choice.code === "1f44d")?.name).toBe("thumbs_up");
    expect(new Set(found.map((choice) => choice.code)).size).toBe(found.length);
    expect(searchEmoji("party_popper")[0]).toEqual({ name: "party_popper", code: "1f389", type: "unicode_emoji" });
  });

  test("popular emoji come first among equal matches", () => {
    // In the popular set's order, each under the alias that matched (+1 as thumbs_up, working_on_it as tools).
    expect(names(searchEmoji("t", 4))).toEqual(["thumbs_up", "tada", "tools", "thinking_face"]);
    expect(searchEmoji("he")[0].name).toBe("heart");
  });

  test("colons, case and spaces in the query are forgiven", () => {
    expect(searchEmoji(":tada:")[0].name).toBe("tada");
    expect(searchEmoji("Party Popper")[0].name).toBe("party_popper");
    expect(searchEmoji("  ")).toHaveLength(8);
    expect(searchEmoji("no_such_emoji_anywhere")).toEqual([]);
  });

  test("limits are kept", () => {
    expect(searchEmoji("a", 5)).toHaveLength(5);
    expect(searchEmoji("a", 300).length).toBeLessThanOrEqual(300);
  });

  test("an organization's emoji shadows the Unicode one of the same name; deactivated ones are left out", () => {
    realmEmoji.value = { "9": custom("9", "smile"), "10": custom("10", "smiley_old", true) };
    const found = searchEmoji("smile", 50);
    expect(found[0]).toMatchObject({ name: "smile", type: "realm_emoji", code: "9" });
    expect(found.filter((choice) => choice.name === "smile")).toHaveLength(1);
    expect(found.some((choice) => choice.code === "1f642")).toBe(false);
    // The Unicode 1f642 is still found by its other name.
    expect(searchEmoji("slightly_smiling")[0]).toMatchObject({ name: "slightly_smiling_face", code: "1f642" });
    expect(names(found)).not.toContain("smiley_old");
    realmEmoji.value = {};
  });

  test("the full list: popular first, every emoji once, custom ones included", () => {
    realmEmoji.value = { "7": custom("7", "party_parrot") };
    const all = allEmoji();
    expect(names(all).slice(0, 4)).toEqual(["+1", "tada", "smile", "heart"]);
    const unicode = all.filter((choice) => choice.type === "unicode_emoji");
    expect(unicode).toHaveLength(unicodeEmojiCodeToNames().size);
    expect(new Set(unicode.map((choice) => choice.code)).size).toBe(unicode.length);
    for (const choice of unicode) expect(emojiNamesForCode(choice.code)[0]).toBe(choice.name);
    expect(all.some((choice) => choice.type === "realm_emoji" && choice.name === "party_parrot")).toBe(true);
    expect(all.some((choice) => choice.type === "zulip_extra_emoji")).toBe(true);
    // Faces right after the popular set, not digits and arrows.
    const firstOther = unicode[searchEmoji("", 100).length];
    expect(parseInt(firstOther.code, 16)).toBeGreaterThanOrEqual(0x1f600);
    realmEmoji.value = {};
  });

  test("malformed data is refused and leaves the loaded data alone", () => {
    expect(() => takeEmojiData({})).toThrow();
    expect(() => takeEmojiData(null)).toThrow();
    expect(searchEmoji("tada")[0].name).toBe("tada");
  });
});
