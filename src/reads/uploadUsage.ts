import { requireAdministrator } from "../access/users";
import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import { uploadSpaceByPerson, uploadSpaceUsed } from "../db/uploads";
import type { User } from "../db/users";

/** GET /realm/upload_usage (a Parley addition, docs/API.md): the upload quotas and what is used of them, for administrators. */

/** People listed, those using the most first: enough to find who fills the quota. */
const PEOPLE_LISTED = 100;

export interface UploadUsage {
  /** Bytes all uploads take (the figure upload_quota_mib bounds). */
  upload_space_used: number;
  upload_quota_mib: number | null;
  upload_quota_per_user_mib: number | null;
  /** Per person, their uploads and their bots' (the figure upload_quota_per_user_mib bounds), most first. */
  users: Array<{ user_id: number; upload_space_used: number }>;
}

export function getUploadUsage(viewer: User): Promise<UploadUsage> {
  requireAdministrator(viewer, "see the organization's upload usage");
  return read(async (db) => {
    const { settings } = await getRealm(db);
    return {
      upload_space_used: await uploadSpaceUsed(db),
      upload_quota_mib: settings.upload_quota_mib,
      upload_quota_per_user_mib: settings.upload_quota_per_user_mib,
      users: (await uploadSpaceByPerson(db, PEOPLE_LISTED)).map((row) => ({ user_id: row.userId, upload_space_used: row.bytes })),
    };
  });
}
