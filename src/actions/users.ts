import { eq } from "drizzle-orm";
import { syncRoleGroups } from "../db/groups";
import { getRealm } from "../db/realm";
import type { Tx } from "../db/types";
import { accessUser, requireAdministrator } from "../access/users";
import { write } from "../db/transaction";
import { countActiveOwners, findUserByEmail, insertUser, users, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { randomToken } from "../model/secrets";
import { Role, isOwner, isRole } from "../model/roles";
import { canSeeDeliveryEmail, userToApi } from "../shapes/users";

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

export const now = () => Math.floor(Date.now() / 1000);

export function activeUserIds(tx: Tx): number[] {
  return tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isActive, true))
    .all()
    .map((row) => row.id);
}

/**
 * Every active user hears of a new account. What they are told differs by whether they may
 * see its real e-mail address, so the audience is split in two by that.
 */
function announceNewUser(tx: Tx, user: User) {
  const audience = tx.select({ id: users.id, role: users.role }).from(users).where(eq(users.isActive, true)).all();
  const [seeing, notSeeing] = [audience.filter((viewer) => canSeeDeliveryEmail(viewer, user)), audience.filter((viewer) => !canSeeDeliveryEmail(viewer, user))];
  if (seeing.length > 0) tx.emit({ type: "realm_user", op: "add", person: userToApi(user, seeing[0]) }, seeing.map((viewer) => viewer.id));
  if (notSeeing.length > 0) tx.emit({ type: "realm_user", op: "add", person: userToApi(user, notSeeing[0]) }, notSeeing.map((viewer) => viewer.id));
}

/** Creates an account of any kind, with its API key, settings and role groups, and announces it. */
export function addAccount(tx: Tx, account: NewAccount): User {
  if (findUserByEmail(tx, account.email)) throw badRequest(`Email '${account.email}' already in use`);
  const realm = getRealm(tx);
  const user = insertUser(tx, {
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
  syncRoleGroups(tx, user.id, account.role, realm.settings.waiting_period_threshold === 0);
  announceNewUser(tx, user);
  return user;
}

export interface NewUserInput {
  email: string;
  password: string;
  fullName: string;
}

const EMAIL_PATTERN = /^[^\s@,<>]+@[^\s@,<>]+\.?[^\s@,<>]*$/;

/** POST /users: an administrator creates a member account. */
export async function createUser(actor: User, input: NewUserInput): Promise<User> {
  requireAdministrator(actor, "create users");
  if (!EMAIL_PATTERN.test(input.email.trim())) throw badRequest(`Invalid email '${input.email}'`);
  if (input.fullName.trim() === "") throw badRequest("Name must not be empty");
  if (input.password.length === 0) throw badRequest("Password must not be empty");
  const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
  return write((tx) => addAccount(tx, { email: input.email, fullName: input.fullName.trim(), role: Role.MEMBER, passwordHash }));
}

export interface UserChanges {
  fullName?: string;
  role?: number;
}

/** PATCH /users/{id}: administrators rename people and change roles; owners alone touch ownership. */
export function updateUser(actor: User, userId: number, changes: UserChanges) {
  requireAdministrator(actor, "change other users");
  return write((tx) => {
    const target = accessUser(tx, userId, { allowDeactivated: true });
    const person: { user_id: number; full_name?: string; role?: number } = { user_id: target.id };
    if (changes.fullName !== undefined) {
      const fullName = changes.fullName.trim();
      if (fullName === "") throw badRequest("Name must not be empty");
      if (fullName.length > 100) throw badRequest("Name too long");
      if (fullName !== target.fullName) person.full_name = fullName;
    }
    if (changes.role !== undefined && changes.role !== target.role) {
      if (!isRole(changes.role)) throw badRequest(`Invalid role ${changes.role}`);
      if ((changes.role === Role.OWNER || target.role === Role.OWNER) && !isOwner(actor.role)) {
        throw badRequest("Only organization owners can add or remove the owner role.");
      }
      if (target.role === Role.OWNER && target.isActive && countActiveOwners(tx) <= 1) {
        throw badRequest("The organization must have at least one owner; make someone else an owner first.");
      }
      person.role = changes.role;
    }
    if (person.full_name === undefined && person.role === undefined) return;
    tx.update(users)
      .set({ fullName: person.full_name ?? target.fullName, role: (person.role as Role | undefined) ?? target.role })
      .where(eq(users.id, target.id))
      .run();
    if (person.role !== undefined) {
      syncRoleGroups(tx, target.id, person.role as Role, getRealm(tx).settings.waiting_period_threshold === 0);
    }
    tx.emit({ type: "realm_user", op: "update", person }, activeUserIds(tx));
  });
}
