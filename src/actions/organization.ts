import { createSystemGroups } from "../db/userGroups";
import { REALM_ID, findRealm, insertRealm, realmHost, updateRealm } from "../db/realm";
import { write } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { REALM_GROUP_SETTING_DEFAULTS, REALM_SETTING_DEFAULTS, type RealmSettings } from "../model/realmSettings";
import { Role } from "../model/roles";
import { defaultUserSettings } from "../model/userSettings";
import { now } from "../model/clock";
import { addAccount } from "./users";
import { hashPassword } from "./passwordHashing";

export class OrganizationExistsError extends Error {
  constructor() {
    super("This data directory already holds an organization.");
  }
}

export interface NewOrganization {
  name: string;
  url: string;
  ownerEmail: string;
  ownerPassword: string;
  ownerFullName: string;
}

export const NOTIFICATION_BOT_NAME = "Notification Bot";

/** Checks an organization's inputs; throws BAD_REQUEST naming the first problem. */
export function validateNewOrganization(input: NewOrganization) {
  if (input.name.trim() === "") throw badRequest("The organization needs a name.");
  if (input.name.length > 40) throw badRequest("The organization name is at most 40 characters.");
  if (!/^[^\s@]+@[^\s@]+$/.test(input.ownerEmail.trim())) throw badRequest(`'${input.ownerEmail}' is not a valid e-mail address.`);
  if (input.ownerPassword.length < 8) throw badRequest("The password must be at least 8 characters.");
  if (input.ownerFullName.trim() === "") throw badRequest("The owner needs a name.");
  try {
    new URL(input.url);
  } catch {
    throw badRequest(`'${input.url}' is not a valid URL.`);
  }
}

/**
 * Creates the one organization this server hosts: the realm, its system groups and settings,
 * its owner, and the notification bot that makes announcements.
 */
export async function createOrganization(input: NewOrganization): Promise<User> {
  validateNewOrganization(input);
  const passwordHash = await hashPassword(input.ownerPassword);
  return await write(async (tx) => {
    if (await findRealm(tx)) throw new OrganizationExistsError();
    const created = now();
    await insertRealm(tx, {
      id: REALM_ID,
      name: input.name.trim(),
      url: input.url.replace(/\/+$/, ""),
      dateCreated: created,
      settings: {} as RealmSettings,
      userSettingsDefaults: defaultUserSettings(),
    });
    const groups = await createSystemGroups(tx, created);
    const groupSettings = Object.fromEntries(
      Object.entries(REALM_GROUP_SETTING_DEFAULTS).map(([setting, groupName]) => [setting, groups.get(groupName)!.id]),
    );
    await updateRealm(tx, { settings: { ...REALM_SETTING_DEFAULTS, ...groupSettings } as RealmSettings });
    const owner = await addAccount(tx, {
      email: input.ownerEmail,
      fullName: input.ownerFullName.trim(),
      role: Role.OWNER,
      passwordHash,
    });
    await addAccount(tx, {
      email: `notification-bot@${realmHost({ url: input.url })}`,
      fullName: NOTIFICATION_BOT_NAME,
      role: Role.MEMBER,
      passwordHash: null,
      isBot: true,
      botType: 1,
      isSystemBot: true,
    });
    return owner;
  });
}
