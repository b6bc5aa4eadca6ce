import { describe, expect, test } from "bun:test";
import {
  decodeHashComponent,
  dmPeople,
  encodeHashComponent,
  hashToPlace,
  narrowContains,
  narrowTerms,
  placeToHash,
  type Muting,
  type Narrow,
} from "../../src/web/client/chat/model/narrow";
import type { Message } from "../../src/web/client/chat/model/types";

/** The chat's narrows: URL fragments as Zulip writes them, API terms, and which live messages belong. */

const names = { channelName: (id: number) => ({ 12: "general", 13: "design team" })[id], userName: (id: number) => ({ 5: "Mel Member", 7: "Max" })[id] };
const ME = 1;

const message = (fields: Partial<Message>): Message => ({
  id: 100,
  type: "stream",
  sender_id: 5,
  sender_full_name: "Mel Member",
  sender_email: "mel@example.com",
  avatar_url: null,
  content: "<p>hi</p>",
  display_recipient: "general",
  stream_id: 12,
  subject: "Deploy plan",
  timestamp: 0,
  reactions: [],
  flags: [],
  ...fields,
});

const noMuting: Muting = { isChannelMuted: () => false, isTopicVisibleInFeed: () => true };

describe("hash encoding", () => {
  test("is Zulip's: URI-encoded with . for %", () => {
    expect(encodeHashComponent("deploy plan")).toBe("deploy.20plan");
    expect(encodeHashComponent("v1.2 (beta)")).toBe("v1.2E2.20.28beta.29");
    expect(encodeHashComponent("café")).toBe("caf.C3.A9");
  });
  test("decodes what it encodes, for any text", () => {
    for (const text of ["deploy plan", "v1.2 (beta)", "100% done.", "日本語 topic", "a/b?c#d", ""]) expect(decodeHashComponent(encodeHashComponent(text))).toBe(text);
  });
  test("a malformed fragment decodes to itself rather than throwing", () => {
    expect(decodeHashComponent(".E0.A4")).toBe(".E0.A4");
  });
});

describe("places and fragments", () => {
  const cases: Array<[Narrow, string, number?]> = [
    [{ kind: "feed" }, "#feed"],
    [{ kind: "channel", channelId: 12 }, "#narrow/channel/12-general"],
    [{ kind: "channel", channelId: 13, topic: "deploy plan" }, "#narrow/channel/13-design-team/topic/deploy.20plan"],
    [{ kind: "channel", channelId: 12, topic: "" }, "#narrow/channel/12-general/topic/"],
    [{ kind: "dm", userIds: [5] }, "#narrow/dm/5-Mel-Member"],
    [{ kind: "dm", userIds: [5, 7] }, "#narrow/dm/5,7-group"],
    [{ kind: "mentions" }, "#narrow/is/mentioned"],
    [{ kind: "starred" }, "#narrow/is/starred"],
    [{ kind: "search", query: "release notes" }, "#narrow/search/release.20notes"],
    [{ kind: "channel", channelId: 12, topic: "x" }, "#narrow/channel/12-general/topic/x/near/42", 42],
  ];
  for (const [narrow, hash, anchor] of cases) {
    test(`${hash} round-trips`, () => {
      const place = anchor === undefined ? { narrow } : { narrow, anchor };
      expect(placeToHash(place, names)).toBe(hash);
      expect(hashToPlace(hash, ME)).toEqual(place);
    });
  }
  test("the number decides; the name after it is decoration", () => {
    expect(hashToPlace("#narrow/channel/12-renamed-long-ago/topic/a", ME)).toEqual({ narrow: { kind: "channel", channelId: 12, topic: "a" } });
    expect(hashToPlace("#narrow/stream/12-general/subject/a", ME)).toEqual({ narrow: { kind: "channel", channelId: 12, topic: "a" } });
  });
  test("Zulip's other spellings: pm-with, with/, and me among the people", () => {
    expect(hashToPlace("#narrow/pm-with/7,1,5-group", ME)).toEqual({ narrow: { kind: "dm", userIds: [5, 7] } });
    expect(hashToPlace("#narrow/dm/1-me", ME)).toEqual({ narrow: { kind: "dm", userIds: [1] } });
    expect(hashToPlace("#narrow/channel/12-general/topic/a/with/9", ME)).toEqual({ narrow: { kind: "channel", channelId: 12, topic: "a" }, anchor: 9 });
    expect(hashToPlace("#all-messages", ME)).toEqual({ narrow: { kind: "feed" } });
    expect(hashToPlace("", ME)).toEqual({ narrow: { kind: "feed" } });
  });
  test("fragments that name nothing we show are refused", () => {
    for (const hash of ["#narrow/channel/general", "#narrow/bogus/1", "#narrow/dm/abc", "#narrow/is/resolved", "#settings", "#narrow/channel/0x1"]) expect(hashToPlace(hash, ME)).toBeUndefined();
  });
});

describe("API terms", () => {
  test("each narrow asks the server for what it shows", () => {
    expect(narrowTerms({ kind: "feed" })).toEqual([{ operator: "in", operand: "home" }]);
    expect(narrowTerms({ kind: "channel", channelId: 12, topic: "a" })).toEqual([
      { operator: "channel", operand: 12 },
      { operator: "topic", operand: "a" },
    ]);
    expect(narrowTerms({ kind: "dm", userIds: [5, 7] })).toEqual([{ operator: "dm", operand: [5, 7] }]);
    expect(narrowTerms({ kind: "search", query: "x" })).toEqual([{ operator: "search", operand: "x" }]);
  });
});

describe("which live messages belong", () => {
  const dm = message({ type: "private", stream_id: undefined, subject: "", display_recipient: [{ id: 1, email: "", full_name: "Me" }, { id: 5, email: "", full_name: "Mel" }] });
  test("a topic takes its own messages, whatever the case of the topic", () => {
    expect(narrowContains({ kind: "channel", channelId: 12, topic: "deploy PLAN" }, message({}), ME, noMuting)).toBe(true);
    expect(narrowContains({ kind: "channel", channelId: 12, topic: "other" }, message({}), ME, noMuting)).toBe(false);
    expect(narrowContains({ kind: "channel", channelId: 13 }, message({}), ME, noMuting)).toBe(false);
  });
  test("a DM conversation takes exactly its people", () => {
    expect(narrowContains({ kind: "dm", userIds: [5] }, dm, ME, noMuting)).toBe(true);
    expect(narrowContains({ kind: "dm", userIds: [5, 7] }, dm, ME, noMuting)).toBe(false);
    expect(narrowContains({ kind: "channel", channelId: 12 }, dm, ME, noMuting)).toBe(false);
  });
  test("the feed leaves out muted topics; mentions and starred follow the flags", () => {
    const muted: Muting = { isChannelMuted: () => false, isTopicVisibleInFeed: () => false };
    expect(narrowContains({ kind: "feed" }, message({}), ME, muted)).toBe(false);
    expect(narrowContains({ kind: "feed" }, dm, ME, muted)).toBe(true);
    expect(narrowContains({ kind: "mentions" }, message({ flags: ["mentioned"] }), ME, noMuting)).toBe(true);
    expect(narrowContains({ kind: "mentions" }, message({ flags: ["read"] }), ME, noMuting)).toBe(false);
    expect(narrowContains({ kind: "starred" }, message({ flags: ["starred"] }), ME, noMuting)).toBe(true);
  });
  test("only the server can say what a search finds", () => {
    expect(narrowContains({ kind: "search", query: "hi" }, message({}), ME, noMuting)).toBeUndefined();
  });
  test("dmPeople: the others, sorted; me alone for notes to self", () => {
    expect(dmPeople([7, 1, 5, 5], ME)).toEqual([5, 7]);
    expect(dmPeople([1], ME)).toEqual([1]);
  });
});
