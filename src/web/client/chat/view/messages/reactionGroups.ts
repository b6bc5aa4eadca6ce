import type { Reaction } from "../../model/types";

/**
 * Reactions as the row shows them: one button per emoji, with who reacted, whether I did,
 * and the words a screen reader says. Pure.
 */

export interface ReactionGroup {
  key: string;
  name: string;
  code: string;
  type: string;
  userIds: number[];
  mine: boolean;
}

/** One group per emoji (by type and code, as the server counts them), in the order first given. */
export function groupReactions(reactions: Reaction[], myId: number): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const reaction of reactions) {
    const key = `${reaction.reaction_type}:${reaction.emoji_code}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, name: reaction.emoji_name, code: reaction.emoji_code, type: reaction.reaction_type, userIds: [], mine: false };
      groups.set(key, group);
    }
    if (group.userIds.includes(reaction.user_id)) continue;
    group.userIds.push(reaction.user_id);
    if (reaction.user_id === myId) group.mine = true;
  }
  return [...groups.values()];
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** "smile: 2 reactions, including you" */
export function reactionLabel(group: ReactionGroup): string {
  return `${group.name.replace(/_/g, " ")}: ${plural(group.userIds.length, "reaction")}${group.mine ? ", including you" : ""}`;
}

/** "You, Mel Member and Max reacted with :smile:" */
export function reactionTitle(group: ReactionGroup, myId: number, nameOf: (userId: number) => string | undefined): string {
  const names = [...group.userIds].sort((a, b) => Number(b === myId) - Number(a === myId)).map((id) => (id === myId ? "You" : (nameOf(id) ?? "Someone")));
  const who = names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${who} reacted with :${group.name}:`;
}
