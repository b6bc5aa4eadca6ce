import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/web/client/chat/model/types";
import { conversationKey, isConversationView, mixesConversations, planRows, SAME_SENDER_SECONDS } from "../../src/web/client/chat/view/messages/grouping";
import { canDelete, canEdit } from "../../src/web/client/chat/view/messages/permissions";
import { groupReactions, reactionLabel, reactionTitle } from "../../src/web/client/chat/view/messages/reactionGroups";
import { dayLabel, formatTime } from "../../src/web/client/chat/view/messages/time";

const ME = 1;
const MEL = 2;
const MAX = 3;

/** Seconds since the epoch of a local date and time (the grouping is by the person's own calendar). */
const at = (year: number, month: number, day: number, hour = 12, minute = 0) => new Date(year, month - 1, day, hour, minute).getTime() / 1000;

let nextId = 100;
function channelMessage(sender: number, timestamp: number, topic = "deploy", channel = 10): Message {
  return {
    id: nextId++,
    type: "stream",
    sender_id: sender,
    sender_full_name: `Person ${sender}`,
    sender_email: `p${sender}@example.com`,
    avatar_url: null,
    content: "<p>hi</p>",
    display_recipient: "general",
    stream_id: channel,
    subject: topic,
    timestamp,
    reactions: [],
    flags: [],
  };
}

function directMessage(sender: number, people: number[], timestamp: number): Message {
  return {
    ...channelMessage(sender, timestamp),
    type: "private",
    stream_id: undefined,
    subject: "",
    display_recipient: people.map((id) => ({ id, email: `p${id}@example.com`, full_name: `Person ${id}` })),
  };
}

const shape = (plans: ReturnType<typeof planRows>) => plans.map((plan) => [plan.dayStart, plan.conversationStart, plan.showSender]);

describe("which narrows mix conversations", () => {
  test("a topic and a DM conversation are one conversation; everything else mixes them", () => {
    expect(mixesConversations({ kind: "channel", channelId: 1, topic: "a" })).toBe(false);
    expect(mixesConversations({ kind: "channel", channelId: 1, topic: "" })).toBe(false);
    expect(mixesConversations({ kind: "dm", userIds: [2] })).toBe(false);
    expect(mixesConversations({ kind: "channel", channelId: 1 })).toBe(true);
    for (const kind of ["feed", "mentions", "starred"] as const) expect(mixesConversations({ kind })).toBe(true);
    expect(mixesConversations({ kind: "search", query: "x" })).toBe(true);
    expect(isConversationView({ kind: "dm", userIds: [2, 3] })).toBe(true);
    expect(isConversationView({ kind: "feed" })).toBe(false);
  });
});

describe("conversation keys", () => {
  test("topics compare without case; a DM is its people, whoever sent it", () => {
    expect(conversationKey(channelMessage(MEL, 0, "Deploy"), ME)).toBe(conversationKey(channelMessage(MAX, 0, "deploy"), ME));
    expect(conversationKey(channelMessage(MEL, 0, "deploy", 10), ME)).not.toBe(conversationKey(channelMessage(MEL, 0, "deploy", 11), ME));
    expect(conversationKey(directMessage(MEL, [ME, MEL], 0), ME)).toBe(conversationKey(directMessage(ME, [ME, MEL], 0), ME));
    expect(conversationKey(directMessage(MEL, [ME, MEL], 0), ME)).not.toBe(conversationKey(directMessage(MEL, [ME, MEL, MAX], 0), ME));
  });
});

describe("grouping rows", () => {
  test("one sender's messages within five minutes share one name and avatar", () => {
    const start = at(2024, 3, 5, 9);
    const plans = planRows(
      [
        channelMessage(MEL, start),
        channelMessage(MEL, start + 60),
        channelMessage(MEL, start + 60 + SAME_SENDER_SECONDS),
        channelMessage(MEL, start + 61 + 2 * SAME_SENDER_SECONDS),
        channelMessage(MAX, start + 62 + 2 * SAME_SENDER_SECONDS),
        channelMessage(MEL, start + 63 + 2 * SAME_SENDER_SECONDS),
      ],
      { mixed: false, myId: ME },
    );
    expect(plans.map((plan) => plan.showSender)).toEqual([true, false, false, true, true, true]);
    expect(plans.map((plan) => plan.dayStart)).toEqual([true, false, false, false, false, false]);
    // A view of one conversation has no recipient headers.
    expect(plans.some((plan) => plan.conversationStart)).toBe(false);
  });

  test("a new day starts with a divider and the sender again", () => {
    const plans = planRows([channelMessage(MEL, at(2024, 3, 5, 23, 58)), channelMessage(MEL, at(2024, 3, 6, 0, 1))], { mixed: false, myId: ME });
    expect(shape(plans)).toEqual([
      [true, false, true],
      [true, false, true],
    ]);
  });

  test("in a mixed view a header comes where the conversation changes, and after a new day", () => {
    const start = at(2024, 3, 5, 9);
    const plans = planRows(
      [
        channelMessage(MEL, start, "deploy"),
        channelMessage(MEL, start + 10, "Deploy"),
        channelMessage(MEL, start + 20, "lunch"),
        directMessage(MEL, [ME, MEL], start + 30),
        directMessage(MEL, [ME, MEL], start + 40),
        channelMessage(MEL, at(2024, 3, 6, 9), "lunch"),
      ],
      { mixed: true, myId: ME },
    );
    expect(shape(plans)).toEqual([
      [true, true, true],
      [false, false, false],
      [false, true, true],
      [false, true, true],
      [false, false, false],
      [true, true, true],
    ]);
  });

  test("/me messages always show their sender", () => {
    const start = at(2024, 3, 5, 9);
    const plans = planRows([channelMessage(MEL, start), { ...channelMessage(MEL, start + 5), is_me_message: true }, channelMessage(MEL, start + 9)], { mixed: false, myId: ME });
    expect(plans.map((plan) => plan.showSender)).toEqual([true, true, true]);
  });

  test("an empty list plans nothing", () => {
    expect(planRows([], { mixed: true, myId: ME })).toEqual([]);
  });
});

describe("day labels and times", () => {
  const now = new Date(2024, 2, 5, 15, 30);
  test("today and yesterday by the calendar, not by 24 hours", () => {
    expect(dayLabel(at(2024, 3, 5, 0, 1), now)).toBe("Today");
    expect(dayLabel(at(2024, 3, 4, 23, 59), now)).toBe("Yesterday");
    expect(dayLabel(at(2024, 3, 4, 0, 0), now)).toBe("Yesterday");
  });
  test("older days are dates; the year shows only when it is another year", () => {
    const sameYear = dayLabel(at(2024, 2, 20), now);
    expect(sameYear).not.toMatch(/Today|Yesterday/);
    expect(sameYear).not.toContain("2024");
    expect(dayLabel(at(2023, 12, 31), now)).toContain("2023");
  });
  test("the clock follows the person's 12 or 24 hour setting", () => {
    const afternoon = at(2024, 3, 5, 15, 7);
    expect(formatTime(afternoon, true)).toMatch(/15.07/);
    expect(formatTime(afternoon, false)).toMatch(/3.07/);
    expect(formatTime(afternoon, false)).not.toMatch(/15/);
  });
});

describe("reaction groups", () => {
  const smile = (user: number) => ({ emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji", user_id: user });
  const tada = (user: number) => ({ emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji", user_id: user });

  test("one group per emoji, in the order first given, each person once", () => {
    const groups = groupReactions([smile(MEL), tada(MAX), smile(ME), smile(MEL)], ME);
    expect(groups.map((group) => [group.name, group.userIds, group.mine])).toEqual([
      ["smile", [MEL, ME], true],
      ["tada", [MAX], false],
    ]);
  });

  test("the same code of another type is another emoji", () => {
    const custom = { emoji_name: "smile", emoji_code: "1f642", reaction_type: "realm_emoji", user_id: MEL };
    expect(groupReactions([smile(MEL), custom], ME)).toHaveLength(2);
  });

  test("labels say the count and whether I am among them; titles say who", () => {
    const [mine, theirs] = groupReactions([smile(MEL), smile(ME), tada(MAX)], ME);
    expect(reactionLabel(mine)).toBe("smile: 2 reactions, including you");
    expect(reactionLabel(theirs)).toBe("tada: 1 reaction");
    const names = (id: number) => ({ [MEL]: "Mel Member", [MAX]: "Max Member" })[id];
    expect(reactionTitle(mine, ME, names)).toBe("You and Mel Member reacted with :smile:");
    expect(reactionTitle(theirs, ME, names)).toBe("Max Member reacted with :tada:");
    const many = groupReactions([smile(MEL), smile(MAX), smile(ME)], ME)[0];
    expect(reactionTitle(many, ME, names)).toBe("You, Mel Member and Max Member reacted with :smile:");
  });
});

describe("edit and delete permissions", () => {
  const now = at(2024, 3, 5, 12);
  const mine = channelMessage(ME, now - 120);
  const theirs = channelMessage(MEL, now - 120);
  const member = { userId: ME, isAdmin: false };
  const admin = { userId: ME, isAdmin: true };
  const open = { allowEditing: true, editLimitSeconds: null, deleteLimitSeconds: null };

  test("my own messages, while editing is allowed and within the limit (none or 0 means no limit)", () => {
    expect(canEdit(mine, member, open, now)).toBe(true);
    expect(canEdit(mine, member, { ...open, editLimitSeconds: 0 }, now)).toBe(true);
    expect(canEdit(mine, member, { ...open, editLimitSeconds: 600 }, now)).toBe(true);
    expect(canEdit(mine, member, { ...open, editLimitSeconds: 60 }, now)).toBe(false);
    expect(canEdit(mine, member, { ...open, allowEditing: false }, now)).toBe(false);
  });

  test("never someone else's message, even for an administrator", () => {
    expect(canEdit(theirs, admin, open, now)).toBe(false);
  });

  test("delete: my own within the limit; administrators any", () => {
    expect(canDelete(mine, member, open, now)).toBe(true);
    expect(canDelete(mine, member, { ...open, deleteLimitSeconds: 60 }, now)).toBe(false);
    expect(canDelete(theirs, member, open, now)).toBe(false);
    expect(canDelete(theirs, admin, { ...open, deleteLimitSeconds: 60 }, now)).toBe(true);
  });
});
