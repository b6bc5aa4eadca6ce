import { randomBytes } from "node:crypto";
import { isUserInGroup } from "../db/userGroups";
import { storeFileBytes } from "../db/fileStore";
import { getRealm } from "../db/realm";
import { deactivateRealmEmoji, findActiveRealmEmojiByName, insertRealmEmoji, listRealmEmoji, rememberAnimation } from "../db/realmEmoji";
import { read, write } from "../db/transaction";
import type { Reader, Tx } from "../db/types";
import { activeUserIds, type User } from "../db/users";
import { ApiError, badRequest } from "../http/errors";
import { now } from "../model/clock";
import { EMOJI_IMAGE_CONTENT_TYPES, inspectEmojiImage, sniffEmojiImageFormat, UndecodableImage, type EmojiImage } from "../model/emojiImages";
import { isAdministrator, isGuest } from "../model/roles";
import { emojiCodeForName, extraEmojiCodeForName } from "../render/emoji";
import { realmEmojiDictionary } from "../shapes/realmEmoji";

/**
 * Custom emoji (the reference's /realm/emoji): members in can_add_custom_emoji_group upload
 * them; their authors and administrators deactivate them. Deactivation keeps the row and the
 * image, so old messages, reactions and statuses still show the emoji.
 */

/** The reference's default for MAX_EMOJI_FILE_SIZE_MIB, a server setting there too. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** Zulip sets no length; a name is typed between colons, so a generous bound keeps lists sane. */
export const MAX_EMOJI_NAME_LENGTH = 100;

/**
 * The reference's rules and messages: spaces (and surrounding blanks) become underscores; then
 * only lowercase letters, digits, "-" and "_", ending in a letter or digit.
 */
export function checkEmojiName(raw: string): string {
  const name = raw.trim().replaceAll(" ", "_");
  if (name === "") throw badRequest("Emoji name is missing");
  if (name.length > MAX_EMOJI_NAME_LENGTH) throw badRequest(`Emoji name is too long (limit: ${MAX_EMOJI_NAME_LENGTH} characters)`);
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw badRequest("Emoji names must end with either a letter or digit.");
    return name;
  }
  throw badRequest("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
}

/** A name clients already know as a built-in emoji, which only administrators may take over. */
const isBuiltInName = (name: string) => emojiCodeForName(name) !== undefined || extraEmojiCodeForName(name) !== undefined;

/** The bytes of the one uploaded file. */
async function onlyFile(files: readonly File[]): Promise<Uint8Array> {
  if (files.length !== 1) throw badRequest("You must upload exactly one file.");
  return new Uint8Array(await files[0]!.arrayBuffer());
}

/** Size, then format and structure, as the reference checks them. */
function checkEmojiImage(bytes: Uint8Array): EmojiImage {
  if (bytes.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  const format = sniffEmojiImageFormat(bytes);
  if (format === null) throw badRequest("Invalid image format");
  try {
    return inspectEmojiImage(bytes, format);
  } catch (error) {
    if (error instanceof UndecodableImage) throw badRequest(error.message);
    throw error;
  }
}

/** The reference's require_member_or_admin, then can_add_custom_emoji_group. */
async function requireEmojiAdder(db: Reader, actor: User) {
  if (isGuest(actor.role)) throw badRequest("Not allowed for guest users");
  if (actor.isBot) throw badRequest("This endpoint does not accept bot requests.");
  if (!(await isUserInGroup(db, actor.id, (await getRealm(db)).settings.can_add_custom_emoji_group))) throw badRequest("Insufficient permission");
}

/** Everyone in the organization gets the whole set (clients replace theirs). */
async function announceRealmEmoji(tx: Tx) {
  tx.emit({ type: "realm_emoji", op: "update", realm_emoji: realmEmojiDictionary(await listRealmEmoji(tx)) }, await activeUserIds(tx));
}

/**
 * POST /realm/emoji/{emoji_name}. The checks run in the reference's order; the bytes are
 * written to the file store before the row that points at them, so a crash between the two
 * leaves at most an unreferenced file, never a row without its image.
 */
export async function uploadRealmEmoji(actor: User, rawName: string, files: readonly File[]) {
  const name = checkEmojiName(rawName);
  const check = async (db: Tx | Reader) => {
    await requireEmojiAdder(db, actor);
    if (await findActiveRealmEmojiByName(db, name)) throw badRequest("A custom emoji with this name already exists.");
  };
  await read(check);
  const bytes = await onlyFile(files);
  if (isBuiltInName(name) && !isAdministrator(actor.role)) throw badRequest("Only administrators can override built-in emoji.");
  const image = checkEmojiImage(bytes);
  const stored = await storeFileBytes(bytes);
  rememberAnimation(stored.sha256, image.animated);
  await write(async (tx) => {
    // Checked again: the permission or the name may have changed while the file was read.
    await check(tx);
    const extension = image.format === "jpeg" ? "jpg" : image.format;
    await insertRealmEmoji(tx, {
      name,
      authorId: actor.id,
      sha256: stored.sha256,
      contentType: EMOJI_IMAGE_CONTENT_TYPES[image.format],
      // Not the ID: a random name, so nobody can walk the (unauthenticated) image URLs.
      fileName: `${randomBytes(8).toString("hex")}.${extension}`,
      createTime: now(),
    });
    await announceRealmEmoji(tx);
  });
}

/** DELETE /realm/emoji/{emoji_name}: the author or an administrator; 404 for no active emoji of that name. */
export async function deactivateCustomEmoji(actor: User, name: string) {
  await write(async (tx) => {
    const emoji = await findActiveRealmEmojiByName(tx, name);
    if (!emoji) throw new ApiError("BAD_REQUEST", `Emoji '${name}' does not exist`, {}, { status: 404 });
    if (!isAdministrator(actor.role) && emoji.authorId !== actor.id) throw badRequest("Must be an organization administrator or emoji author");
    await deactivateRealmEmoji(tx, emoji.id);
    await announceRealmEmoji(tx);
  });
}
