import type { User } from "../db/users";
import type { UserStatusRow } from "../db/userStatus";
import type { ReactionType } from "../model/emoji";

/** A user's status as the reference shows it: only what is set (an empty object when nothing is). */
export interface ApiUserStatus {
  away?: true;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: ReactionType;
}

/** `away` is the deprecated face of the presence_enabled setting (spec 2.5). */
export const isAway = (user: Pick<User, "settings">) => user.settings.presence_enabled === false;

export function statusToApi(user: Pick<User, "settings">, row: UserStatusRow | undefined): ApiUserStatus {
  const status: ApiUserStatus = {};
  if (isAway(user)) status.away = true;
  if (row?.statusText) status.status_text = row.statusText;
  if (row?.emojiName) Object.assign(status, { emoji_name: row.emojiName, emoji_code: row.emojiCode, reaction_type: row.reactionType });
  return status;
}
