import { accessMessage, messageAudience } from "../access/messages";
import { getRealm, realmHost } from "../db/realm";
import { type EmojiKey, type Reaction, deleteReaction, findReaction, findReactionWithEmoji, insertReaction } from "../db/reactions";
import { write } from "../db/transaction";
import { findActiveRealmEmojiByName, findRealmEmojiById } from "../db/realmEmoji";
import type { Reader, Tx } from "../db/types";
import type { User } from "../db/users";
import type { ReactionEvent } from "../events/kinds/messageEdits";
import { ApiError, badRequest } from "../http/errors";
import { Role } from "../model/roles";
import { emojiCodeForName, extraEmojiCodeForName, isExtraEmojiCode, isKnownUnicodeEmoji } from "../render/emoji";
import { canSeeDeliveryEmail, standInEmail } from "../shapes/users";
import { REACTION_TYPES, type ReactionType } from "../model/emoji";

/** Emoji reactions (spec 2.4, 4.13): adding one, or a vote for one already there; removing one's own. */

export interface ReactionInput {
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/**
 * Zulip's clients (zulip-terminal's emoji picker, the mobile app) send the built-in extra
 * emoji's type under its Zulip name; it is taken as svc_extra_emoji, which answers carry.
 */
const CLIENT_REACTION_TYPES: Record<string, ReactionType> = { zulip_extra_emoji: "svc_extra_emoji" };

export function reactionType(value: string): ReactionType {
  const type = Object.hasOwn(CLIENT_REACTION_TYPES, value) ? CLIENT_REACTION_TYPES[value]! : value;
  if (!(REACTION_TYPES as readonly string[]).includes(type)) throw badRequest("Invalid emoji type.");
  return type as ReactionType;
}

/** The emoji a bare name means, as in the reference: an active custom emoji first, then the built-in extra emoji, then Unicode. */
export async function emojiForName(db: Reader, name: string): Promise<EmojiKey> {
  const custom = await findActiveRealmEmojiByName(db, name);
  if (custom) return { emojiCode: String(custom.id), reactionType: "realm_emoji" };
  const extra = extraEmojiCodeForName(name);
  if (extra !== undefined) return { emojiCode: extra, reactionType: "svc_extra_emoji" };
  const unicode = emojiCodeForName(name);
  if (unicode !== undefined) return { emojiCode: unicode, reactionType: "unicode_emoji" };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Why a code names no emoji in its namespace, or null when it names one (deactivated custom emoji included). */
async function invalidCode(db: Reader, key: EmojiKey): Promise<string | null> {
  switch (key.reactionType) {
    case "realm_emoji":
      return await findRealmEmojiById(db, key.emojiCode) ? null : "Invalid custom emoji.";
    case "svc_extra_emoji":
      return isExtraEmojiCode(key.emojiCode) ? null : "Invalid emoji code.";
    case "unicode_emoji":
      return isKnownUnicodeEmoji(key.emojiCode) ? null : "Invalid emoji code.";
  }
}

/** Whether name and code make an emoji that may be newly used (a reaction or a status), with the reference's messages. */
export async function checkNewEmoji(db: Reader, name: string, key: EmojiKey) {
  const problem = await invalidCode(db, key);
  if (problem) throw badRequest(problem);
  if (key.reactionType === "realm_emoji") {
    const custom = (await findRealmEmojiById(db, key.emojiCode))!;
    if (custom.name !== name) throw badRequest("Invalid custom emoji name.");
    if (custom.deactivated) throw badRequest("This custom emoji has been deactivated.");
    return;
  }
  const nameMatches = key.reactionType === "svc_extra_emoji" ? extraEmojiCodeForName(name) === key.emojiCode : emojiCodeForName(name) === key.emojiCode;
  if (!nameMatches) throw badRequest("Invalid emoji name.");
}

export async function addReaction(user: User, messageId: number, input: ReactionInput & { emoji_name: string }) {
  await write(async (tx) => {
    const { message, channel } = await accessMessage(tx, user, messageId, { modifying: true });
    const key =
      input.emoji_code === undefined || input.reaction_type === undefined
        ? await emojiForName(tx, input.emoji_name)
        : { emojiCode: input.emoji_code, reactionType: reactionType(input.reaction_type) };
    if (await findReaction(tx, message.id, user.id, key)) throw new ApiError("REACTION_ALREADY_EXISTS", "Reaction already exists.");
    // Reacting with an emoji someone already used is a vote for their reaction: it keeps its
    // name (and stays valid even if that emoji could no longer start a new reaction).
    const existing = await findReactionWithEmoji(tx, message.id, key);
    if (!existing) await checkNewEmoji(tx, input.emoji_name, key);
    const reaction = await insertReaction(tx, { messageId: message.id, userId: user.id, emojiName: existing?.emojiName ?? input.emoji_name, ...key });
    await emitReaction(tx, "add", reaction, user, await messageAudience(tx, channel, [message]));
  });
}

export async function removeReaction(user: User, messageId: number, input: ReactionInput) {
  await write(async (tx) => {
    const { message, channel } = await accessMessage(tx, user, messageId, { modifying: true });
    if (input.emoji_code === undefined && input.emoji_name === undefined) {
      throw badRequest("At least one of the following arguments must be present: emoji_name, emoji_code");
    }
    // The code identifies the emoji exactly (names may have been remapped since); a name alone
    // is looked up as for a new reaction.
    const key =
      input.emoji_code === undefined
        ? await emojiForName(tx, input.emoji_name!)
        : { emojiCode: input.emoji_code, reactionType: reactionType(input.reaction_type ?? "unicode_emoji") };
    const reaction = await findReaction(tx, message.id, user.id, key);
    if (!reaction) {
      const problem = input.emoji_code === undefined ? null : await invalidCode(tx, key);
      throw problem ? badRequest(problem) : new ApiError("REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
    }
    await deleteReaction(tx, reaction.id);
    await emitReaction(tx, "remove", reaction, user, await messageAudience(tx, channel, [message]));
  });
}

/** Everyone who hears of the message's changes, and the reactor, who may not be subscribed. */
async function emitReaction(tx: Tx, op: ReactionEvent["op"], reaction: Reaction, user: User, audience: number[]) {
  // The deprecated `user` object goes to everyone alike, so it shows the address anyone may see.
  const email = canSeeDeliveryEmail({ id: 0, role: Role.GUEST }, user) ? user.email : standInEmail(user.id, realmHost(await getRealm(tx)));
  const event: ReactionEvent = {
    type: "reaction",
    op,
    message_id: reaction.messageId,
    emoji_name: reaction.emojiName,
    emoji_code: reaction.emojiCode,
    reaction_type: reaction.reactionType,
    user_id: user.id,
    user: { user_id: user.id, email, full_name: user.fullName },
  };
  tx.emit(event, [...audience, user.id]);
}
