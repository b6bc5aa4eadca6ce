import { existsSync } from "node:fs";
import { mayDownload } from "../access/attachments";
import { storedFilePath } from "../db/fileStore";
import { getRealm, REALM_ID } from "../db/realm";
import { read, readWithoutSnapshot } from "../db/transaction";
import { type Attachment, findAttachmentById, findAttachmentByPathId, linkingMessages, listAttachmentsOf, uploadSpaceUsed } from "../db/uploads";
import type { User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { now } from "../model/clock";
import { signUploadToken, TEMPORARY_URL_SECONDS, tokenAttachmentId, verifyUploadToken } from "../model/uploads";
import { type ApiAttachment, attachmentToApi } from "../shapes/attachments";

/** GET /attachments, and the lookups behind downloading an upload. */

export function listOwnAttachments(viewer: User): Promise<{ attachments: ApiAttachment[]; upload_space_used: number }> {
  return read(async (db) => {
    const own = await listAttachmentsOf(db, viewer.id);
    const linking = await linkingMessages(db, own.map((attachment) => attachment.id));
    return { attachments: own.map((attachment) => attachmentToApi(attachment, linking.get(attachment.id) ?? [])), upload_space_used: await uploadSpaceUsed(db) };
  });
}

/** What a download sends: the stored bytes and what to call them. */
export interface Download {
  path: string;
  contentType: string;
  name: string;
  size: number;
}

// The reference's words; missing, deleted and forbidden files all look alike.
const notFound = () => new ApiError("BAD_REQUEST", "This file does not exist or has been deleted.", {}, { status: 404 });

const downloadOf = (attachment: Attachment): Download => {
  const path = storedFilePath(attachment.sha256);
  // Only a damaged data dir loses bytes a row points at; that file is gone for its users too.
  if (!existsSync(path)) throw notFound();
  return { path, contentType: attachment.contentType, name: attachment.fileName, size: attachment.size };
};

/** The upload at /user_uploads/{realm}/{path}, if `viewer` (null: no credentials) may have it. */
function accessUpload(viewer: User | null, realmId: string, path: string): Promise<Attachment> {
  return read(async (db) => {
    const attachment = realmId === String(REALM_ID) ? await findAttachmentByPathId(db, `${realmId}/${path}`) : undefined;
    if (!attachment || !(await mayDownload(db, viewer, attachment, await getRealm(db)))) throw notFound();
    return attachment;
  });
}

export const downloadFor = async (viewer: User | null, realmId: string, path: string): Promise<Download> => downloadOf(await accessUpload(viewer, realmId, path));

/**
 * Signs temporary URLs. A new key each start: a temporary URL lives a minute, so one made
 * before a restart may as well stop working.
 */
const TOKEN_KEY = crypto.getRandomValues(new Uint8Array(32));

/** GET /api/v1/user_uploads/{realm}/{path}: a URL that works for a minute without credentials. */
export async function temporaryUploadUrl(viewer: User, realmId: string, path: string): Promise<string> {
  const attachment = await accessUpload(viewer, realmId, path);
  const token = signUploadToken(TOKEN_KEY, attachment.id, attachment.pathId, now() + TEMPORARY_URL_SECONDS);
  return `/user_uploads/temporary/${token}/${encodeURIComponent(attachment.pathId.slice(attachment.pathId.lastIndexOf("/") + 1))}`;
}

/** GET /user_uploads/temporary/{token}/{filename}: the upload a valid, unexpired token names. */
export async function downloadForToken(token: string, filename: string): Promise<Download> {
  const id = tokenAttachmentId(token);
  const attachment = id === undefined ? undefined : await readWithoutSnapshot((db) => findAttachmentById(db, id));
  if (!attachment || !verifyUploadToken(TOKEN_KEY, token, attachment.id, attachment.pathId, now())) throw badRequest("Invalid token");
  if (attachment.pathId.slice(attachment.pathId.lastIndexOf("/") + 1) !== filename) throw badRequest("Invalid filename");
  return downloadOf(attachment);
}
