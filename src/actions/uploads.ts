import { requireStoredFile, storeFileBytes, writePointingAt } from "../db/fileStore";
import { getRealm, REALM_ID } from "../db/realm";
import { readWithoutSnapshot, write } from "../db/transaction";
import type { Reader } from "../db/types";
import { insertAttachment, uploadSpaceUsed, uploadSpaceUsedBy } from "../db/uploads";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { now } from "../model/clock";
import { randomToken } from "../model/secrets";
import { displayFileName, MIB, uploadContentType, uploadLimitMib, uploadUrl, urlFileName } from "../model/uploads";
import { attachmentToApi } from "../shapes/attachments";
import { removeFileIfUnused } from "./attachments";

/** POST /user_uploads (the reference's upload_file_backend): one file, stored, listed as the caller's. */

export interface UploadedFile {
  /** The name the client gave the file, if any. */
  name: string | undefined;
  /** The media type the client declared for it, if any. */
  type: string | undefined;
  bytes: Uint8Array;
}

export interface UploadResult {
  uri: string;
  url: string;
  filename: string;
}

/** Picks the one file of a multipart body: the reference takes one, whatever its field is called. */
export function theOneFile(files: readonly File[]): File {
  if (files.length === 0) throw badRequest("You must specify a file to upload");
  if (files.length > 1) throw badRequest("You may only upload one file at a time");
  return files[0]!;
}

/** The person whose quota an upload counts against: the uploader, or a bot's owner. */
const quotaHolder = (user: User) => (user.isBot && user.botOwnerId !== null ? user.botOwnerId : user.id);

/**
 * The file size limit, the person's quota, then the organization's. The person's refusal is a
 * BAD_REQUEST (the reference has no such quota, and clients show a BAD_REQUEST's message as
 * it is); the organization's is the reference's REALM_UPLOAD_QUOTA.
 */
async function checkLimits(db: Reader, user: User, size: number) {
  const { settings } = await getRealm(db);
  const limit = uploadLimitMib(settings.max_file_upload_size_mib);
  if (size > limit * MIB) throw badRequest(`Uploaded file is larger than the allowed limit of ${limit} MiB`);
  const own = settings.upload_quota_per_user_mib;
  if (own !== null && (await uploadSpaceUsedBy(db, quotaHolder(user))) + size > own * MIB) {
    throw badRequest(`Upload would exceed your upload quota of ${own} MiB (your uploads and your bots' together); an organization owner can raise it.`);
  }
  const quota = settings.upload_quota_mib;
  if (quota !== null && (await uploadSpaceUsed(db)) + size > quota * MIB) throw new ApiError("REALM_UPLOAD_QUOTA", "Upload would exceed your organization's upload quota.");
}

export async function uploadFile(user: User, file: UploadedFile): Promise<UploadResult> {
  const name = displayFileName(file.name);
  const contentType = uploadContentType(file.type, name);
  // Refused before a byte is written when it is plainly too large; checked again below.
  await readWithoutSnapshot((db) => checkLimits(db, user, file.bytes.length));
  // Written (and flushed) before the transaction, so the write lock is not held over a disk
  // write of up to 25 MiB. The bytes are named by their hash: a crash leaves no half file.
  const stored = await storeFileBytes(file.bytes);
  const pathId = `${REALM_ID}/${randomToken(24)}/${urlFileName(name)}`;
  let attachment;
  try {
    attachment = await writePointingAt(file.bytes, () => write(async (tx) => {
      await checkLimits(tx, user, stored.size);
      // The same bytes' last upload may have been deleted, and its file removed, since they
      // were stored above.
      requireStoredFile(stored.sha256);
      const row = await insertAttachment(tx, { ownerId: user.id, pathId, fileName: name, contentType, size: stored.size, sha256: stored.sha256, createTime: now() });
      tx.emit({ type: "attachment", op: "add", attachment: attachmentToApi(row, []), upload_space_used: await uploadSpaceUsed(tx) }, [user.id]);
      return row;
    }));
  } catch (error) {
    // Refused after all (the quota filled meanwhile): bytes nothing points at do not stay.
    await removeFileIfUnused(stored.sha256);
    throw error;
  }
  const url = uploadUrl(attachment.pathId);
  return { uri: url, url, filename: attachment.fileName };
}
