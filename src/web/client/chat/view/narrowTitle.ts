import type { Narrow } from "../model/narrow";
import { channelName, me, topicLabel, userName } from "../state/store";

/** The people of a DM conversation by name: "Mel Member", "Mel, Max and Ada", or "You" for notes to self. */
export function dmTitle(userIds: number[]): string {
  if (userIds.length === 1 && userIds[0] === me.value.userId) return `${me.value.fullName} (you)`;
  const names = userIds.map((id) => userName(id) ?? "Unknown person");
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Where the person is, in words: for the header and the tab title. Names are text, never HTML. */
export function narrowTitle(narrow: Narrow): string {
  switch (narrow.kind) {
    case "feed":
      return "Combined feed";
    case "channel": {
      const channel = `#${channelName(narrow.channelId) ?? "unknown channel"}`;
      return narrow.topic === undefined ? channel : `${channel} › ${topicLabel(narrow.topic)}`;
    }
    case "dm":
      return dmTitle(narrow.userIds);
    case "mentions":
      return "Mentions";
    case "starred":
      return "Starred messages";
    case "search":
      return `Search: ${narrow.query}`;
  }
}
