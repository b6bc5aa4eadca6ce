import { describe, expect, test } from "bun:test";
import {
  applyInsert,
  channelText,
  emojiText,
  findToken,
  matchChannels,
  matchPeople,
  matchTopics,
  matchWildcards,
  mentionText,
  topicLinkText,
  wordPrefixRank,
} from "../../src/web/client/chat/view/compose/autocomplete";
import { DRAFT_PREFIX, draftKey, loadDraft, MAX_DRAFTS, pruneDrafts, saveDraft, type DraftStorage } from "../../src/web/client/chat/view/compose/drafts";
import { typingSentence } from "../../src/web/client/chat/view/compose/TypingLine";
import { createTypingOut, typingParams, type TypingParams, type TypingRules } from "../../src/web/client/chat/view/compose/typingOut";

/** The compose box's pure parts: autocomplete tokens and insertions, draft keys and storage, typing notices. */

const people = [
  { user_id: 1, full_name: "Mel Member", email: "mel@example.com" },
  { user_id: 2, full_name: "Max Member", email: "max@example.com" },
  { user_id: 3, full_name: "Ada Admin", email: "ada.admin@example.com" },
  { user_id: 4, full_name: "Olivia Owner", email: "boss@example.com" },
];

describe("which token the caret is in", () => {
  test("@ starts a person, with spaces allowed in the name; @_ is a silent mention", () => {
    expect(findToken("hello @me")).toEqual({ kind: "person", query: "me", silent: false, start: 6 });
    expect(findToken("@Mel Mem")).toEqual({ kind: "person", query: "Mel Mem", silent: false, start: 0 });
    expect(findToken("cc @_ad")).toEqual({ kind: "person", query: "ad", silent: true, start: 3 });
    expect(findToken("@")).toEqual({ kind: "person", query: "", silent: false, start: 0 });
    expect(findToken("(@mel")).toMatchObject({ kind: "person", start: 1 });
  });

  test("an e-mail address, a finished mention or '@ ' is no token", () => {
    expect(findToken("write to mel@exa")).toBeNull();
    expect(findToken("@**Mel Member** ")).toBeNull();
    expect(findToken("@**Mel Member** thanks")).toBeNull();
    expect(findToken("at @ noon")).toBeNull();
  });

  test("# starts a channel, but not a Markdown heading or C#", () => {
    expect(findToken("see #gen")).toEqual({ kind: "channel", query: "gen", start: 4 });
    expect(findToken("#")).toEqual({ kind: "channel", query: "", start: 0 });
    expect(findToken("#**gen")).toEqual({ kind: "channel", query: "gen", start: 0 });
    expect(findToken("# Heading")).toBeNull();
    expect(findToken("I like C#")).toBeNull();
    expect(findToken("#**general** ")).toBeNull();
  });

  test("a channel then > asks for its topics, however the channel was written", () => {
    expect(findToken("#**general>dep")).toEqual({ kind: "topic", channel: "general", query: "dep", start: 0 });
    expect(findToken("see #**general** >")).toEqual({ kind: "topic", channel: "general", query: "", start: 4 });
    expect(findToken("#**general**>de")).toEqual({ kind: "topic", channel: "general", query: "de", start: 0 });
    expect(findToken("#general>deploy pl")).toEqual({ kind: "topic", channel: "general", query: "deploy pl", start: 0 });
    expect(findToken("#**general>deploy plan** ")).toBeNull();
  });

  test(": needs two characters after it, so times and smileys pass", () => {
    expect(findToken(":s")).toBeNull();
    expect(findToken("nice :sm")).toEqual({ kind: "emoji", query: "sm", start: 5 });
    expect(findToken("time: 10:30")).toBeNull();
    expect(findToken("see:")).toBeNull();
    expect(findToken("ok :)")).toBeNull();
    expect(findToken(":+1")).toEqual({ kind: "emoji", query: "+1", start: 0 });
  });
});

describe("the text a choice inserts", () => {
  test("mentions name the person, with the id when the name is shared; silent ones get _", () => {
    expect(mentionText(people[0], people)).toBe("@**Mel Member** ");
    expect(mentionText(people[0], people, true)).toBe("@_**Mel Member** ");
    const twins = [...people, { user_id: 9, full_name: "mel member", email: "other@example.com" }];
    expect(mentionText(people[0], twins)).toBe("@**Mel Member|1** ");
  });

  test("channels, topics and emoji", () => {
    expect(channelText("general")).toBe("#**general** ");
    expect(channelText("general", true)).toBe("#**general>");
    expect(topicLinkText("general", "deploy plan")).toBe("#**general>deploy plan** ");
    expect(emojiText("tada")).toBe(":tada: ");
  });

  test("the token is replaced up to the caret and the caret lands after the insertion", () => {
    const text = "hi @me and more";
    const token = findToken(text.slice(0, 6))!;
    expect(applyInsert(text, 6, token.start, "@**Mel Member** ")).toEqual({ text: "hi @**Mel Member** and more", caret: 18 });
    expect(applyInsert("hi @me", 6, 3, "@**Mel Member** ")).toEqual({ text: "hi @**Mel Member** ", caret: 19 });
    const topic = "#**general>dep";
    expect(applyInsert(topic, topic.length, 0, topicLinkText("general", "deploy plan"))).toEqual({ text: "#**general>deploy plan** ", caret: 25 });
  });
});

describe("matching", () => {
  test("word prefixes: the start, then any later word, across several words", () => {
    expect(wordPrefixRank("Mel Member", "mel")).toBe(0);
    expect(wordPrefixRank("Mel Member", "mem")).toBe(1);
    expect(wordPrefixRank("Mel Member", "mel mem")).toBe(0);
    expect(wordPrefixRank("Mel Member", "ember")).toBe(-1);
    expect(wordPrefixRank("deploy-plan", "plan")).toBe(1);
  });

  test("people by name prefix, then word prefix, then e-mail", () => {
    expect(matchPeople("m", people).map((person) => person.user_id)).toEqual([1, 2]);
    expect(matchPeople("member", people).map((person) => person.user_id)).toEqual([1, 2]);
    expect(matchPeople("boss", people).map((person) => person.user_id)).toEqual([4]);
    expect(matchPeople("a", people).map((person) => person.user_id)).toEqual([3]);
    expect(matchPeople("", people, 2)).toHaveLength(2);
  });

  test("@all everywhere, @topic only in a channel, neither silently", () => {
    expect(matchWildcards("", true, false).map((wildcard) => wildcard.name)).toEqual(["all", "topic"]);
    expect(matchWildcards("t", false, false)).toEqual([]);
    expect(matchWildcards("a", false, false).map((wildcard) => wildcard.name)).toEqual(["all"]);
    expect(matchWildcards("", true, true)).toEqual([]);
  });

  test("channels: subscribed first, archived never", () => {
    const channels = [
      { stream_id: 1, name: "general", is_archived: false },
      { stream_id: 2, name: "design", is_archived: false },
      { stream_id: 3, name: "dev ops", is_archived: false },
      { stream_id: 4, name: "deprecated", is_archived: true },
    ];
    expect(matchChannels("de", channels, new Set([3])).map((channel) => channel.stream_id)).toEqual([3, 2]);
    expect(matchChannels("ops", channels, new Set()).map((channel) => channel.stream_id)).toEqual([3]);
    expect(matchChannels("", channels, new Set([1])).map((channel) => channel.stream_id)).toEqual([1, 2, 3]);
  });

  test("topics keep the server's newest-first order, those starting with the query first", () => {
    const topics = ["release plan", "plans for lunch", "deploy plan", "standup"];
    expect(matchTopics("plan", topics)).toEqual(["plans for lunch", "release plan", "deploy plan"]);
    expect(matchTopics("", topics)).toEqual(topics);
  });
});

class MemoryStorage implements DraftStorage {
  items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key = (index: number) => [...this.items.keys()][index] ?? null;
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

describe("drafts", () => {
  test("keyed by channel and topic (without case) or by the DM conversation", () => {
    expect(draftKey({ type: "stream", channelId: 12, topic: " Deploy Plan " }, 5)).toBe("stream:12:deploy plan");
    expect(draftKey({ type: "stream", channelId: 12, topic: "" }, 5)).toBe("stream:12:");
    // The same conversation, however its people are listed, and with or without me.
    expect(draftKey({ type: "private", userIds: [9, 7] }, 5)).toBe("dm:7,9");
    expect(draftKey({ type: "private", userIds: [5, 7, 9] }, 5)).toBe("dm:7,9");
    expect(draftKey({ type: "private", userIds: [5] }, 5)).toBe("dm:5");
  });

  test("saved per person: another person in the same browser does not get them", () => {
    const storage = new MemoryStorage();
    saveDraft("dm:7", "half a thought", 5, storage);
    expect(storage.items.has(`${DRAFT_PREFIX}dm:7`)).toBe(true);
    expect(loadDraft("dm:7", 5, storage)).toBe("half a thought");
    expect(loadDraft("dm:7", 6, storage)).toBeNull();
    expect(loadDraft("dm:8", 5, storage)).toBeNull();
  });

  test("saving an empty box deletes the draft; unreadable values are ignored", () => {
    const storage = new MemoryStorage();
    saveDraft("stream:1:a", "text", 5, storage);
    saveDraft("stream:1:a", "  \n", 5, storage);
    expect(storage.items.size).toBe(0);
    storage.setItem(`${DRAFT_PREFIX}stream:1:b`, "{not json");
    expect(loadDraft("stream:1:b", 5, storage)).toBeNull();
  });

  test(`only the ${MAX_DRAFTS} newest are kept`, () => {
    const storage = new MemoryStorage();
    storage.setItem("unrelated", "stays");
    for (let index = 0; index < MAX_DRAFTS + 5; index++) saveDraft(`stream:1:t${index}`, `draft ${index}`, 5, storage, 1000 + index);
    expect(storage.items.size).toBe(MAX_DRAFTS + 1);
    expect(loadDraft("stream:1:t0", 5, storage)).toBeNull();
    expect(loadDraft("stream:1:t4", 5, storage)).toBeNull();
    expect(loadDraft("stream:1:t5", 5, storage)).toBe("draft 5");
    expect(loadDraft(`stream:1:t${MAX_DRAFTS + 4}`, 5, storage)).toBe(`draft ${MAX_DRAFTS + 4}`);
    pruneDrafts(storage, 3);
    expect([...storage.items.keys()].filter((key) => key.startsWith(DRAFT_PREFIX))).toHaveLength(3);
    expect(storage.getItem("unrelated")).toBe("stays");
  });
});

describe("typing notices sent", () => {
  const rules: TypingRules = { startedWaitMs: 1000, stoppedWaitMs: 30, sendDirect: true, sendStream: true, myId: 5, topicsRequired: false, maxTopicLength: 60 };

  function notifier(overrides: Partial<TypingRules> = {}) {
    const sent: Array<[string, TypingParams]> = [];
    let clock = 0;
    const out = createTypingOut({ post: (op, params) => sent.push([op, params]), rules: () => ({ ...rules, ...overrides }), now: () => clock });
    return { out, sent, advance: (ms: number) => (clock += ms) };
  }

  test("the parameters the reference asks for", () => {
    expect(typingParams({ type: "private", userIds: [7, 9] }, rules)).toEqual({ type: "direct", to: [7, 9] });
    expect(typingParams({ type: "stream", channelId: 3, topic: "deploy" }, rules)).toEqual({ type: "stream", stream_id: 3, topic: "deploy" });
    expect(typingParams({ type: "private", userIds: [5] }, rules)).toBeNull();
    expect(typingParams({ type: "private", userIds: [7] }, { ...rules, sendDirect: false })).toBeNull();
    expect(typingParams({ type: "stream", channelId: 3, topic: "" }, { ...rules, sendStream: false })).toBeNull();
    // What the server would refuse is not sent.
    expect(typingParams({ type: "stream", channelId: 3, topic: "" }, rules)).toEqual({ type: "stream", stream_id: 3, topic: "" });
    expect(typingParams({ type: "stream", channelId: 3, topic: "" }, { ...rules, topicsRequired: true })).toBeNull();
    expect(typingParams({ type: "stream", channelId: 3, topic: "x".repeat(61) }, rules)).toBeNull();
  });

  test("start at most once per wait period, stop after a pause", async () => {
    const { out, sent, advance } = notifier();
    const to = { type: "private" as const, userIds: [7] };
    out.typed(to);
    advance(400);
    out.typed(to);
    expect(sent.map(([op]) => op)).toEqual(["start"]);
    advance(700);
    out.typed(to);
    expect(sent.map(([op]) => op)).toEqual(["start", "start"]);
    await Bun.sleep(60);
    expect(sent.map(([op]) => op)).toEqual(["start", "start", "stop"]);
    expect(sent[2][1]).toEqual({ type: "direct", to: [7] });
  });

  test("writing somewhere else stops the first place; stop without a start sends nothing", () => {
    const { out, sent } = notifier();
    out.stop();
    expect(sent).toEqual([]);
    out.typed({ type: "stream", channelId: 3, topic: "a" });
    out.typed({ type: "stream", channelId: 3, topic: "b" });
    out.stop();
    expect(sent).toEqual([
      ["start", { type: "stream", stream_id: 3, topic: "a" }],
      ["stop", { type: "stream", stream_id: 3, topic: "a" }],
      ["start", { type: "stream", stream_id: 3, topic: "b" }],
      ["stop", { type: "stream", stream_id: 3, topic: "b" }],
    ]);
  });

  test("nothing at all when the person turned the notices off", () => {
    const { out, sent } = notifier({ sendDirect: false, sendStream: false });
    out.typed({ type: "private", userIds: [7] });
    out.typed({ type: "stream", channelId: 3, topic: "a" });
    out.stop();
    expect(sent).toEqual([]);
  });
});

test("who is typing, in a sentence", () => {
  expect(typingSentence([])).toBe("");
  expect(typingSentence(["Mel"])).toBe("Mel is typing…");
  expect(typingSentence(["Mel", "Max"])).toBe("Mel and Max are typing…");
  expect(typingSentence(["Mel", "Max", "Ada"])).toBe("Mel, Max and Ada are typing…");
  expect(typingSentence(["Mel", "Max", "Ada", "Olivia"])).toBe("Several people are typing…");
});
