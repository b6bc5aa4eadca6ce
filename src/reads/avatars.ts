import { readFileSync } from "node:fs";
import { isAvatarFile } from "../db/avatars";
import { storedFilePath } from "../db/fileStore";
import { REALM_ID } from "../db/realm";
import { readWithoutSnapshot } from "../db/transaction";
import { EMOJI_IMAGE_CONTENT_TYPES, sniffEmojiImageFormat } from "../model/emojiImages";

export interface AvatarImage {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * An uploaded avatar's image by its name (the bytes' SHA-256), served without credentials as
 * the original serves avatars. Only bytes that are someone's avatar: the file store also holds
 * uploads, which have their own rules. Null when no account has it (or the file is missing).
 */
export async function readAvatarImage(realmId: string, fileName: string): Promise<AvatarImage | null> {
  if (realmId !== String(REALM_ID) || !SHA256.test(fileName) || !(await readWithoutSnapshot((db) => isAvatarFile(db, fileName)))) return null;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = readFileSync(storedFilePath(fileName));
  } catch {
    return null;
  }
  // Checked at upload; told again from the bytes so the type served always says what they are.
  const format = sniffEmojiImageFormat(bytes);
  return format === null ? null : { bytes, contentType: EMOJI_IMAGE_CONTENT_TYPES[format] };
}
