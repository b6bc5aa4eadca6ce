import { splitAudienceByAccess, usersWhoCanSee } from "../access/userAccess";
import { checkRoleChange } from "../access/roles";
import { userGroupAudience } from "../access/userGroups";
import { accessUser, botAdministratorIds, requireAccountAdministrator } from "../access/users";
import { syncRoleGroups } from "../db/userGroups";
import { getRealm, realmHost, type Realm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserByEmail, insertUser, type User, updateUser as saveUser } from "../db/users";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";
import { randomToken } from "../model/secrets";
import { Role } from "../model/roles";
import { inaccessibleUserToApi } from "../shapes/inaccessibleUser";
import { canSeeDeliveryEmail, userToApi } from "../shapes/users";
import { hashPassword } from "./passwordHashing";

export interface NewAccount {
  email: string;
  fullName: string;
  role: Role;
  /** Already hashed: hashing is slow and must happen before the transaction opens. */
  passwordHash: string | null;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  isSystemBot?: boolean;
}

/**
 * Every active user hears of a new account. Those allowed to see its real e-mail address are
 * told it, the rest get the stand-in, and guests who may not see the user a placeholder.
 */
async function announceNewUser(tx: Tx, user: User, realm: Realm) {
  const { seeing, notSeeing } = await splitAudienceByAccess(tx, user, realm);
  for (const visible of [true, false]) {
    const group = seeing.filter((viewer) => canSeeDeliveryEmail(viewer, user) === visible);
    if (group.length === 0) continue;
    tx.emit({ type: "realm_user", op: "add", person: userToApi(user, { viewer: group[0], realmHost: realmHost(realm) }) }, group.map((viewer) => viewer.id));
  }
  if (notSeeing.length > 0) {
    tx.emit({ type: "realm_user", op: "add", person: inaccessibleUserToApi(user.id, realm), inaccessible_user: true }, notSeeing.map((viewer) => viewer.id));
  }
}

/** Creates an account of any kind, with its API key, settings and role groups, and announces it. */
export async function addAccount(tx: Tx, account: NewAccount): Promise<User> {
  if (await findUserByEmail(tx, account.email)) throw badRequest(`Email '${account.email}' already in use`);
  const realm = await getRealm(tx);
  const user = await insertUser(tx, {
    email: account.email,
    deliveryEmail: account.isBot ? null : account.email.trim().toLowerCase(),
    fullName: account.fullName,
    role: account.role,
    passwordHash: account.passwordHash,
    isBot: account.isBot ?? false,
    botType: account.botType ?? null,
    botOwnerId: account.botOwnerId ?? null,
    isSystemBot: account.isSystemBot ?? false,
    apiKey: randomToken(32),
    dateJoined: now(),
    settings: realm.userSettingsDefaults,
  });
  const roleGroups = await syncRoleGroups(tx, user.id, account.role, realm.settings.waiting_period_threshold === 0);
  await announceNewUser(tx, user, realm);
  await announceRoleGroups(tx, user, roleGroups);
  return user;
}

const MAX_NAME_LENGTH = 100;
// Characters that would break mention and markdown syntax (the original's NAME_INVALID_CHARS).
const NAME_INVALID_CHARACTERS = /[*`\\>"@\p{Cc}]/u;

/** A full name as stored: trimmed, 2 to 100 characters, nothing that breaks mention syntax. */
export function checkFullName(raw: string): string {
  const fullName = raw.trim();
  if (fullName.length > MAX_NAME_LENGTH) throw badRequest(`Name too long: at most ${MAX_NAME_LENGTH} characters.`);
  if (fullName.length < 2) throw badRequest("Name too short: at least 2 characters.");
  if (NAME_INVALID_CHARACTERS.test(fullName)) throw badRequest('Invalid characters in name: * ` \\ > " @ and control characters are not allowed.');
  // "Name|15" would be read as a mention of user 15.
  if (/\|\d+$/.test(fullName)) throw badRequest("Invalid name: it must not end in | and a number.");
  return fullName;
}

const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const DOMAIN = /^(localhost|([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9][a-z0-9-]*[a-z0-9])$/i;

function checkEmailAddress(raw: string): string {
  const email = raw.trim();
  const at = email.lastIndexOf("@");
  const valid = at > 0 && email.length <= 254 && at <= 64 && LOCAL_PART.test(email.slice(0, at)) && DOMAIN.test(email.slice(at + 1));
  if (!valid) throw badRequest(`Invalid email '${raw}'`);
  return email;
}

const MIN_PASSWORD_LENGTH = 8;

export interface NewUserInput {
  email: string;
  password: string;
  fullName: string;
}

/** POST /users: an administrator creates a member account. */
export async function createUser(actor: User, input: NewUserInput): Promise<User> {
  requireAccountAdministrator(actor, "create users");
  const email = checkEmailAddress(input.email);
  const fullName = checkFullName(input.fullName);
  if (input.password.length < MIN_PASSWORD_LENGTH) throw badRequest(`The password is too weak: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  const passwordHash = await hashPassword(input.password);
  return await write((tx) => addAccount(tx, { email, fullName, role: Role.MEMBER, passwordHash }));
}

export interface UserChanges {
  fullName?: string;
  role?: number;
}

export async function renameUser(tx: Tx, target: User, fullName: string) {
  await saveUser(tx, target.id, { fullName });
  tx.emit({ type: "realm_user", op: "update", person: { user_id: target.id, full_name: fullName } }, await usersWhoCanSee(tx, target));
  if (target.isBot) tx.emit({ type: "realm_bot", op: "update", bot: { user_id: target.id, full_name: fullName } }, await botAdministratorIds(tx, target));
}

async function changeRole(tx: Tx, target: User, role: Role) {
  await saveUser(tx, target.id, { role });
  const roleGroups = await syncRoleGroups(tx, target.id, role, (await getRealm(tx)).settings.waiting_period_threshold === 0);
  tx.emit({ type: "realm_user", op: "update", person: { user_id: target.id, role } }, await usersWhoCanSee(tx, target));
  await announceRoleGroups(tx, target, roleGroups);
}

/**
 * The role groups' member lists changed: as in the reference, after the realm_user event,
 * one user_group event per group. Lists show active users only, so a deactivated account's
 * change is told when it returns (actions/deactivateUser.ts).
 */
async function announceRoleGroups(tx: Tx, user: User, { joined, left }: { joined: number[]; left: number[] }) {
  if (!user.isActive || joined.length + left.length === 0) return;
  const audience = await userGroupAudience(tx);
  for (const groupId of left) tx.emit({ type: "user_group", op: "remove_members", group_id: groupId, user_ids: [user.id] }, audience);
  for (const groupId of joined) tx.emit({ type: "user_group", op: "add_members", group_id: groupId, user_ids: [user.id] }, audience);
}

/** PATCH /users/{id}: administrators rename people and change roles; owners alone touch ownership. */
export const updateUser = (actor: User, userId: number, changes: UserChanges) => write((tx) => applyUserChanges(tx, actor, userId, changes));

export async function applyUserChanges(tx: Tx, actor: User, userId: number, changes: UserChanges) {
  requireAccountAdministrator(actor, "change other users' names and roles");
  const target = await accessUser(tx, userId, { allowDeactivated: true });
  if (target.isSystemBot) throw badRequest("System bots cannot be changed.");
  const fullName = changes.fullName === undefined ? undefined : checkFullName(changes.fullName);
  const role = changes.role === undefined ? undefined : await checkRoleChange(tx, actor, target, changes.role);
  if (fullName !== undefined && fullName !== target.fullName) await renameUser(tx, target, fullName);
  if (role !== undefined && role !== target.role) await changeRole(tx, target, role);
}
