import { claimableAttachments } from "../access/attachments";
import { removeStoredFile } from "../db/fileStore";
import type { MessageRow } from "../db/messages";
import type { Realm } from "../db/realm";
import { write } from "../db/transaction";
import type { SendTx, Tx } from "../db/types";
import {
  type Attachment,
  attachmentsLinkedTo,
  deleteAttachmentRow,
  findAttachmentById,
  isStoredFileInUse,
  linkAttachments,
  linkingMessages,
  unlinkAttachments,
  unlinkedAttachmentIds,
  uploadSpaceUsed,
} from "../db/uploads";
import type { User } from "../db/users";
import { ApiError } from "../http/errors";
import { attachmentToApi } from "../shapes/attachments";

/**
 * Uploads and the messages that link them (the reference's Attachment.messages): linked when a
 * message that names them is sent or edited, unlinked by edits and with their messages. An
 * upload whose last linking message is deleted goes too (the reference's "automatically
 * deleted once the last message containing a link to them is deleted"), and its bytes leave
 * the file store once no upload or custom emoji uses them. Each change is told to the
 * upload's owner alone.
 */

/** Tells the owners of these uploads what they look like now. */
async function emitUpdates(tx: SendTx, changed: Attachment[]) {
  if (changed.length === 0) return;
  const linking = await linkingMessages(tx, changed.map((attachment) => attachment.id));
  const used = await uploadSpaceUsed(tx);
  for (const attachment of changed) {
    tx.emit({ type: "attachment", op: "update", attachment: attachmentToApi(attachment, linking.get(attachment.id) ?? []), upload_space_used: used }, [attachment.ownerId]);
  }
}

/**
 * Inside a send, once the message is stored: links the uploads the sender may link (found by
 * claimableAttachments before the message row, which needs has_attachment). Costs nothing for
 * the messages that name no upload.
 */
export async function linkNewMessage(tx: SendTx, messageId: number, claimed: Attachment[]) {
  if (claimed.length === 0) return;
  await linkAttachments(tx, messageId, claimed.map((attachment) => attachment.id));
  await emitUpdates(tx, claimed);
}

/**
 * A content edit: links the newly named uploads the sender may link, unlinks those no longer
 * named (an upload the message still names stays linked, whoever may download it now).
 * Answers whether the message links any upload afterwards (its has_attachment).
 */
export async function relinkEditedMessage(tx: Tx, message: MessageRow, sender: User, realm: Realm, pathIds: readonly string[]): Promise<boolean> {
  const before = await attachmentsLinkedTo(tx, [message.id]);
  const named = new Set(pathIds);
  const kept = before.filter((attachment) => named.has(attachment.pathId));
  const dropped = before.filter((attachment) => !named.has(attachment.pathId));
  const linkedPaths = new Set(before.map((attachment) => attachment.pathId));
  const added = await claimableAttachments(tx, sender, realm, pathIds.filter((pathId) => !linkedPaths.has(pathId)));
  await unlinkAttachments(tx, message.id, dropped.map((attachment) => attachment.id));
  await linkAttachments(tx, message.id, added.map((attachment) => attachment.id));
  await emitUpdates(tx, [...dropped, ...added]);
  return kept.length + added.length > 0;
}

/** Hashes whose last upload went in a transaction; checked (and removed) after it by removeFilesNoLongerUsed. */
const filesToCheck = new Set<string>();

/**
 * After messages were deleted (their links went with them, ON DELETE CASCADE): uploads no
 * message links any more are deleted, the others' owners told of the shorter list.
 * `linked` is what attachmentsLinkedTo answered before the deletion.
 */
export async function releaseAttachments(tx: Tx, linked: Attachment[]) {
  if (linked.length === 0) return;
  const unlinked = await unlinkedAttachmentIds(tx, linked.map((attachment) => attachment.id));
  const gone = linked.filter((attachment) => unlinked.has(attachment.id));
  for (const attachment of gone) await deleteAttachmentRow(tx, attachment.id);
  await emitUpdates(tx, linked.filter((attachment) => !unlinked.has(attachment.id)));
  const used = gone.length > 0 ? await uploadSpaceUsed(tx) : 0;
  for (const attachment of gone) {
    tx.emit({ type: "attachment", op: "remove", attachment: { id: attachment.id }, upload_space_used: used }, [attachment.ownerId]);
    filesToCheck.add(attachment.sha256);
  }
}

/**
 * Removes the stored bytes of deleted uploads that nothing uses any more. Called after the
 * transaction that deleted them: a rolled-back deletion left its rows, so its files are kept.
 * Check and removal take the writer's turn (a write() that changes no row), and an upload
 * re-checks that its bytes are on disk inside its own transaction (actions/uploads.ts), so the
 * two cannot interleave: a read would not see an upload's open transaction about to point at
 * the bytes.
 */
export async function removeFilesNoLongerUsed() {
  if (filesToCheck.size === 0) return;
  const hashes = [...filesToCheck];
  filesToCheck.clear();
  await write(async (tx) => {
    for (const sha256 of hashes) if (!(await isStoredFileInUse(tx, sha256))) removeStoredFile(sha256);
  });
}

/** For bytes stored for an upload that was then refused. */
export async function removeFileIfUnused(sha256: string) {
  filesToCheck.add(sha256);
  await removeFilesNoLongerUsed();
}

/** DELETE /attachments/{id}: the caller's own upload; anyone else's is as unknown as a wrong ID. */
export async function removeAttachment(user: User, attachmentId: number) {
  await write(async (tx) => {
    const attachment = await findAttachmentById(tx, attachmentId);
    if (!attachment || attachment.ownerId !== user.id) throw new ApiError("BAD_REQUEST", "Invalid attachment");
    await deleteAttachmentRow(tx, attachment.id);
    tx.emit({ type: "attachment", op: "remove", attachment: { id: attachment.id }, upload_space_used: await uploadSpaceUsed(tx) }, [user.id]);
    filesToCheck.add(attachment.sha256);
  });
  await removeFilesNoLongerUsed();
}
