import type { Reader } from "../db/types";
import { countActiveOwners, type User } from "../db/users";
import { badRequest, ownerRequired } from "../http/errors";
import { ALL_ROLES, Role, isOwner, isRole, roleName } from "../model/roles";

/**
 * Whether `actor` may give `target` this role: only owners touch ownership, bots are never
 * owners, and the last active owner keeps the role. Returns the role, checked.
 */
export async function checkRoleChange(tx: Reader, actor: User, target: User, role: number): Promise<Role> {
  if (!isRole(role)) throw badRequest(`Invalid role ${role}: use one of ${ALL_ROLES.map((r) => `${r} (${roleName[r]})`).join(", ")}.`);
  if (role === target.role) return role;
  if ((role === Role.OWNER || target.role === Role.OWNER) && !isOwner(actor.role)) {
    throw ownerRequired();
  }
  if (role === Role.OWNER && target.isBot) throw badRequest("Bots cannot be organization owners.");
  if (target.role === Role.OWNER && target.isActive && (await countActiveOwners(tx)) <= 1) {
    throw badRequest("The owner role cannot be removed from the only organization owner; make someone else an owner first.");
  }
  return role;
}
