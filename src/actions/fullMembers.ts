import { systemGroupId } from "../access/groupSettings";
import { userGroupAudience } from "../access/userGroups";
import { addGroupMembers, directMemberIds, removeGroupMembers } from "../db/userGroups";
import { findRealm, getRealm } from "../db/realm";
import { read, write } from "../db/transaction";
import type { Tx } from "../db/types";
import { accountsWithRole } from "../db/users";
import { now } from "../model/clock";
import { Role, SystemGroup } from "../model/roles";

const DAY_SECONDS = 86_400;

/**
 * Keeps role:fullmembers equal to the members whose accounts are at least
 * `waiting_period_threshold` days old (the reference's
 * update_users_in_full_members_system_group), announcing who joined and left it. Runs when
 * the threshold changes and from a job, since accounts age into it.
 */
export async function syncFullMembers(tx: Tx, thresholdDays: number) {
  const groupId = await systemGroupId(tx, SystemGroup.FULL_MEMBERS);
  const cutoff = now() - thresholdDays * DAY_SECONDS;
  const members = await accountsWithRole(tx, Role.MEMBER);
  const wanted = new Set(members.filter((member) => thresholdDays === 0 || member.dateJoined <= cutoff).map((member) => member.id));
  const current = new Set(await directMemberIds(tx, groupId));
  const joining = [...wanted].filter((id) => !current.has(id)).sort((a, b) => a - b);
  const leaving = [...current].filter((id) => !wanted.has(id)).sort((a, b) => a - b);
  await addGroupMembers(tx, groupId, joining);
  await removeGroupMembers(tx, groupId, leaving);

  // Group member lists show active accounts only; a deactivated one's change is told when it returns.
  const active = new Set(members.filter((member) => member.isActive).map((member) => member.id));
  const audience = await userGroupAudience(tx);
  const joined = joining.filter((id) => active.has(id));
  const left = leaving.filter((id) => active.has(id));
  if (joined.length > 0) tx.emit({ type: "user_group", op: "add_members", group_id: groupId, user_ids: joined }, audience);
  if (left.length > 0) tx.emit({ type: "user_group", op: "remove_members", group_id: groupId, user_ids: left }, audience);
}

/** The job's pass: members whose waiting period ended since the last one become full members. */
export async function promoteFullMembers() {
  // Before setup there is no one to promote; without a waiting period every member already is
  // one. Neither writes, so caches stay warm.
  const threshold = await read(async (db) => (await findRealm(db))?.settings.waiting_period_threshold ?? 0);
  if (threshold === 0) return;
  await write(async (tx) => {
    const threshold = (await getRealm(tx)).settings.waiting_period_threshold;
    if (threshold > 0) await syncFullMembers(tx, threshold);
  });
}
