import { isUserInGroup } from "../db/userGroups";
import type { Realm } from "../db/realm";
import type { Reader } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { BotType } from "../model/bots";

/** can_create_bots_group may create any bot; can_create_write_only_bots_group adds incoming webhooks. */
export async function requireBotCreationPermission(db: Reader, actor: User, realm: Realm, botType: number) {
  if (await isUserInGroup(db, actor.id, realm.settings.can_create_bots_group)) return;
  if (botType === BotType.INCOMING_WEBHOOK && await isUserInGroup(db, actor.id, realm.settings.can_create_write_only_bots_group)) return;
  throw badRequest(
    botType === BotType.INCOMING_WEBHOOK
      ? "Insufficient permission: you are in neither can_create_bots_group nor can_create_write_only_bots_group of this organization."
      : "Insufficient permission: only members of this organization's can_create_bots_group can create this kind of bot.",
  );
}
