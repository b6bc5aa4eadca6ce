import { type Reaction, reactionsToMessages } from "../db/reactions";
import type { Reader } from "../db/types";
import type { ApiReaction } from "./messages";

const reactionToApi = (reaction: Reaction): ApiReaction => ({
  emoji_name: reaction.emojiName,
  emoji_code: reaction.emojiCode,
  reaction_type: reaction.reactionType,
  user_id: reaction.userId,
});

/** Reactions of many messages at once, oldest first, for shaping message objects. */
export async function reactionsForMessages(db: Reader, messageIds: number[]): Promise<Map<number, ApiReaction[]>> {
  const result = new Map<number, ApiReaction[]>(messageIds.map((id) => [id, []]));
  for (const row of await reactionsToMessages(db, messageIds)) result.get(row.messageId)!.push(reactionToApi(row));
  return result;
}
