import type { EmojiKey } from "../db/reactions";
import { read, write } from "../db/transaction";
import type { Reader, Tx } from "../db/types";
import { findUserById, type User, updateUser } from "../db/users";
import { saveUserStatus, type UserStatusChanges } from "../db/userStatus";
import type { UserStatusEvent } from "../events/kinds/userStatus";
import { badRequest } from "../http/errors";
import { checkNewEmoji, emojiForName, reactionType } from "./reactions";
import { presenceSharingChanged } from "./presence";
import { announceSettingChange } from "./settings";
import { now } from "../model/clock";
import { usersWhoCanSee } from "../access/userAccess";

/** User status (spec 2.5, 4.10): text, emoji, and the deprecated `away`. */

export const MAX_STATUS_TEXT_LENGTH = 60;

export interface StatusInput {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

/** The emoji to store: cleared by an empty name, looked up from the name where code or type is missing, else checked as given. */
async function statusEmoji(db: Reader, input: StatusInput): Promise<UserStatusChanges> {
  const name = input.emoji_name;
  if (name === undefined) {
    if (input.emoji_code !== undefined || input.reaction_type !== undefined) {
      throw badRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.");
    }
    return {};
  }
  if (name === "") return { emojiName: "", emojiCode: "", reactionType: "unicode_emoji" };
  const looked = input.emoji_code === undefined || input.reaction_type === undefined ? await emojiForName(db, name) : undefined;
  const key: EmojiKey = {
    emojiCode: input.emoji_code ?? looked!.emojiCode,
    reactionType: input.reaction_type === undefined ? looked!.reactionType : reactionType(input.reaction_type),
  };
  await checkNewEmoji(db, name, key);
  return { emojiName: name, ...key };
}

/** Checks everything before the transaction; returns what to store. */
async function checkStatus(db: Reader, input: StatusInput): Promise<UserStatusChanges> {
  const statusText = input.status_text?.trim();
  if (input.away === undefined && statusText === undefined && input.emoji_name === undefined) {
    throw badRequest("Client did not pass any new values.");
  }
  // Characters, not bytes nor UTF-16 units: an emoji in the text counts as one.
  if (statusText !== undefined && [...statusText].length > MAX_STATUS_TEXT_LENGTH) {
    throw badRequest(`status_text is too long (limit: ${MAX_STATUS_TEXT_LENGTH} characters)`);
  }
  return { ...(statusText === undefined ? {} : { statusText }), ...(await statusEmoji(db, input)) };
}

/** `away` is the negation of presence_enabled: setting it changes the setting, which the user's clients are told. */
async function setPresenceEnabled(tx: Tx, user: User, enabled: boolean) {
  if ((user.settings.presence_enabled !== false) === enabled) return;
  await updateUser(tx, user.id, { settings: { ...user.settings, presence_enabled: enabled } });
  announceSettingChange(tx, user, "presence_enabled", enabled);
  await presenceSharingChanged(tx, user, enabled);
}

/** POST /users/me/status: only what was passed changes; everyone who may see the user hears of it. */
export async function updateOwnStatus(actor: User, input: StatusInput) {
  if (actor.isBot) throw badRequest("This endpoint does not accept bot requests.");
  const changes = await read((db) => checkStatus(db, input));
  await write(async (tx) => {
    const user = (await findUserById(tx, actor.id)) ?? actor;
    if (input.away !== undefined) await setPresenceEnabled(tx, user, !input.away);
    if (Object.keys(changes).length > 0) await saveUserStatus(tx, user.id, changes, now());
    const event: UserStatusEvent = { type: "user_status", user_id: user.id };
    if (input.away !== undefined) event.away = input.away;
    if (changes.statusText !== undefined) event.status_text = changes.statusText;
    if (changes.emojiName !== undefined) Object.assign(event, { emoji_name: changes.emojiName, emoji_code: changes.emojiCode, reaction_type: changes.reactionType });
    tx.emit(event, await usersWhoCanSee(tx, user));
  });
}
