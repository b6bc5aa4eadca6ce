import { describe, expect, test } from "bun:test";
import {
  codepointsToUnicode,
  emojiCodeForName,
  emojiNameForCode,
  emojiNamesForCode,
  extraEmojiCodeForName,
  isExtraEmojiCode,
  isKnownUnicodeEmoji,
  unicodeToCode,
} from "../../src/render/emoji";

describe("Unicode emoji names and codes", () => {
  test("Zulip's popular reactions resolve to Zulip's codes", () => {
    expect(emojiCodeForName("+1")).toBe("1f44d");
    expect(emojiCodeForName("thumbs_up")).toBe("1f44d");
    expect(emojiCodeForName("smile")).toBe("1f642");
    expect(emojiCodeForName("tada")).toBe("1f389");
    expect(emojiCodeForName("heart")).toBe("2764");
    expect(emojiCodeForName("working_on_it")).toBe("1f6e0");
    expect(emojiCodeForName("octopus")).toBe("1f419");
  });

  test("dataset names (iamcal and CLDR) work too", () => {
    expect(emojiCodeForName("thumbsup")).toBe("1f44d");
    expect(emojiCodeForName("party_popper")).toBe("1f389");
    expect(emojiCodeForName("red_heart")).toBe("2764");
    expect(emojiCodeForName("grinning")).toBe("1f600");
    expect(emojiCodeForName("technologist")).toBe("1f9d1-200d-1f4bb");
  });

  test("codes have no FE0F selector and keep 4-digit padding", () => {
    expect(emojiCodeForName("hash")).toBe("0023-20e3");
    expect(emojiCodeForName("woman_shrugging")).toBe("1f937-200d-2640");
  });

  test("canonical names map back to their code", () => {
    expect(emojiNameForCode("1f44d")).toBe("+1");
    expect(emojiNameForCode("1f642")).toBe("smile");
    expect(emojiNameForCode("1f604")).toBe("big_smile");
    expect(emojiNameForCode("1f937-200d-2640")).toBe("woman_shrugging");
    for (const code of ["1f44d", "1f642", "2764", "1f389", "1f431", "1f600"]) {
      expect(emojiCodeForName(emojiNameForCode(code)!)).toBe(code);
    }
    expect(emojiNamesForCode("1f44d")).toEqual(expect.arrayContaining(["+1", "thumbs_up", "thumbsup"]));
  });

  test("every name of every code resolves to that code", () => {
    for (const code of ["1f44d", "1f389", "2764", "1f6e0", "1f408", "1f431"]) {
      for (const name of emojiNamesForCode(code)) expect(emojiCodeForName(name)).toBe(code);
    }
  });

  test("unknown names and codes, and skin-tone variants, are not emoji", () => {
    expect(emojiCodeForName("not_an_emoji")).toBeUndefined();
    expect(emojiCodeForName("skin-tone-2")).toBeUndefined();
    expect(emojiNameForCode("ffff")).toBeUndefined();
    expect(isKnownUnicodeEmoji("1f44d")).toBe(true);
    expect(isKnownUnicodeEmoji("1f44d-1f3fd")).toBe(false);
    expect(isKnownUnicodeEmoji("1F44D")).toBe(false);
    expect(isKnownUnicodeEmoji("zulip")).toBe(false);
    expect(emojiNamesForCode("nope")).toEqual([]);
  });
});

describe("the built-in extra emoji", () => {
  test("zulip is the extra emoji, with code zulip", () => {
    expect(extraEmojiCodeForName("zulip")).toBe("zulip");
    expect(isExtraEmojiCode("zulip")).toBe(true);
    expect(extraEmojiCodeForName("smile")).toBeUndefined();
    expect(isExtraEmojiCode("1f44d")).toBe(false);
    expect(emojiCodeForName("zulip")).toBeUndefined();
  });
});

describe("codepoints", () => {
  test("codes to characters", () => {
    expect(codepointsToUnicode("1f44d")).toBe("👍");
    expect(codepointsToUnicode("1f468-200d-1f4bb")).toBe("👨\u200D💻");
    expect(codepointsToUnicode("0023-20e3")).toBe("#\u20E3");
    expect(codepointsToUnicode("1F44D")).toBe("👍");
  });

  test("malformed codes are refused", () => {
    for (const bad of ["", "xyz", "1f44d-", "-1f44d", "110000", "d800", "1f44d--1f44d", "1234567", "zulip"]) {
      expect(codepointsToUnicode(bad)).toBeUndefined();
    }
  });

  test("characters to codes, dropping FE0F", () => {
    expect(unicodeToCode("👍")).toBe("1f44d");
    expect(unicodeToCode("\u2764\uFE0F")).toBe("2764");
    expect(unicodeToCode("#\uFE0F\u20E3")).toBe("0023-20e3");
    expect(unicodeToCode(codepointsToUnicode("1f468-200d-1f4bb")!)).toBe("1f468-200d-1f4bb");
  });
});
