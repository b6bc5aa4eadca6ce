import { readFileSync } from "node:fs";
import { storedFilePath } from "../db/fileStore";
import { findRealmEmojiByFileName, formatOfContentType, listRealmEmoji } from "../db/realmEmoji";
import { REALM_ID } from "../db/realm";
import { readWithoutSnapshot } from "../db/transaction";
import { stillFrame } from "../model/emojiImages";
import { type ApiRealmEmoji, realmEmojiDictionary } from "../shapes/realmEmoji";

/** GET /realm/emoji: every custom emoji; the list is public to everyone in the organization. */
export const listCustomEmoji = async (): Promise<Record<string, ApiRealmEmoji>> => realmEmojiDictionary(await readWithoutSnapshot(listRealmEmoji));

export interface EmojiImageFile {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

/**
 * An emoji's image, or its first frame (`still`), for serving without authentication as the
 * reference does; deactivated emoji stay served, since old messages show them. Null when no
 * emoji has that file name (or its file is missing).
 */
export async function readEmojiImage(realmId: string, fileName: string, still: boolean): Promise<EmojiImageFile | null> {
  if (realmId !== String(REALM_ID)) return null;
  const row = await readWithoutSnapshot((db) => findRealmEmojiByFileName(db, fileName));
  if (!row) return null;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = readFileSync(storedFilePath(row.sha256));
  } catch {
    return null;
  }
  if (!still) return { bytes, contentType: row.contentType };
  const format = formatOfContentType(row.contentType);
  if (format === null) return null;
  try {
    return { bytes: stillFrame(bytes, format), contentType: row.contentType };
  } catch {
    return null;
  }
}
