import type { MessageRow } from "../db/messages";
import { getRealm } from "../db/realm";
import type { Reader } from "../db/types";
import { findUserById } from "../db/users";
import { badRequest } from "../http/errors";
import type { ChannelViewer } from "./channels";
import { holdsPermission } from "./groupSettings";

const NO_PERMISSION = "You don't have permission to delete this message";

/**
 * Anyone in can_delete_any_message_group deletes anything they can see. Others delete only
 * their own messages and their bots', if in can_delete_own_message_group and within
 * message_content_delete_limit_seconds.
 */
export async function checkCanDelete(db: Reader, viewer: ChannelViewer, message: MessageRow, now: number) {
  const { settings } = await getRealm(db);
  const { user, groupIds } = viewer;
  if (holdsPermission(user, settings.can_delete_any_message_group, { allowInternet: false, allowNobody: true, allowEveryone: false }, groupIds)) return;
  const ownOrOwnBots = message.senderId === user.id || (await findUserById(db, message.senderId))?.botOwnerId === user.id;
  if (!ownOrOwnBots) throw badRequest(NO_PERMISSION);
  if (!holdsPermission(user, settings.can_delete_own_message_group, { allowInternet: false, allowNobody: true, allowEveryone: true }, groupIds)) throw badRequest(NO_PERMISSION);
  const limit = settings.message_content_delete_limit_seconds;
  if (limit !== null && now - message.dateSent > limit) throw badRequest("The time limit for deleting this message has passed");
}
