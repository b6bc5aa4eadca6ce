import { getRealm } from "../db/realm";
import { setAvatarFile } from "../db/avatars";
import { requireStoredFile, storeFileBytes, writePointingAt } from "../db/fileStore";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserById, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { inspectEmojiImage, sniffEmojiImageFormat, UndecodableImage } from "../model/emojiImages";
import { splitAudienceByAccess } from "../access/userAccess";
import { avatarSource, avatarUrl, avatarUrlMedium, canSeeDeliveryEmail } from "../shapes/users";
import { removeFileIfUnused } from "./attachments";

/**
 * A person's own avatar (the original's /users/me/avatar): an uploaded image in one of the
 * formats custom emoji take, told by its bytes, or back to the Gravatar. Parley keeps the
 * image as uploaded, in one size.
 */

/** The reference's default for MAX_AVATAR_FILE_SIZE_MIB; register's max_avatar_file_size_mib says the same. */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;

const refuseBots = (user: User) => {
  // Bots' avatars are their owners' business, through the bot endpoints, as in the original.
  if (user.isBot) throw badRequest("This endpoint does not accept bot requests.");
};

/** Size, then format and structure, with the original's messages. */
function checkAvatarImage(bytes: Uint8Array) {
  if (bytes.length > MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024) throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`);
  const format = sniffEmojiImageFormat(bytes);
  if (format === null) throw badRequest("Invalid image format");
  try {
    inspectEmojiImage(bytes, format);
  } catch (error) {
    if (error instanceof UndecodableImage) throw badRequest(error.message);
    throw error;
  }
}

/**
 * Everyone who may see the person learns the new avatar (the reference's realm_user update
 * with its four avatar fields). A Gravatar is marked computable for those who may see the
 * address it is made from, so clients that compute Gravatars themselves get null, as in
 * their user lists.
 */
async function announceAvatar(tx: Tx, user: User) {
  const person = {
    user_id: user.id,
    avatar_source: avatarSource(user),
    avatar_url: avatarUrl(user),
    avatar_url_medium: avatarUrlMedium(user),
    avatar_version: user.avatarVersion,
  };
  const { seeing } = await splitAudienceByAccess(tx, user, await getRealm(tx));
  if (user.avatarFile) {
    tx.emit({ type: "realm_user", op: "update", person }, seeing.map((viewer) => viewer.id));
    return;
  }
  const computable = seeing.filter((viewer) => canSeeDeliveryEmail(viewer, user)).map((viewer) => viewer.id);
  const notComputable = seeing.filter((viewer) => !canSeeDeliveryEmail(viewer, user)).map((viewer) => viewer.id);
  if (computable.length > 0) tx.emit({ type: "realm_user", op: "update", person, gravatar_computable: true }, computable);
  if (notComputable.length > 0) tx.emit({ type: "realm_user", op: "update", person }, notComputable);
}

/** Points the user at `sha256` (or the Gravatar), announces it; returns the user and the bytes they pointed at before. */
async function changeAvatar(tx: Tx, actor: User, sha256: string | null) {
  const before = (await findUserById(tx, actor.id)) ?? actor;
  // The bytes may have been removed as unused since they were stored (see actions/attachments.ts).
  if (sha256 !== null) requireStoredFile(sha256);
  const after = await setAvatarFile(tx, actor.id, sha256);
  await announceAvatar(tx, after);
  return { user: after, previous: before.avatarFile };
}

/** The previous avatar's bytes go once nothing uses them. */
async function letGo(previous: string | null, current: string | null) {
  if (previous !== null && previous !== current) await removeFileIfUnused(previous);
}

/** POST /users/me/avatar: exactly one image file. Answers the new avatar_url, as the original does. */
export async function uploadOwnAvatar(actor: User, files: readonly File[]): Promise<{ avatar_url: string }> {
  refuseBots(actor);
  if (files.length !== 1) throw badRequest("You must upload exactly one avatar.");
  const bytes = new Uint8Array(await files[0]!.arrayBuffer());
  checkAvatarImage(bytes);
  const stored = await storeFileBytes(bytes);
  const { user, previous } = await writePointingAt(bytes, () => write((tx) => changeAvatar(tx, actor, stored.sha256)));
  await letGo(previous, stored.sha256);
  return { avatar_url: avatarUrl(user) };
}

/** DELETE /users/me/avatar: back to the Gravatar; answers its URL, as the original does. */
export async function removeOwnAvatar(actor: User): Promise<{ avatar_url: string }> {
  refuseBots(actor);
  const { user, previous } = await write((tx) => changeAvatar(tx, actor, null));
  await letGo(previous, null);
  return { avatar_url: avatarUrl(user) };
}
