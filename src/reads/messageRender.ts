import { getRealm } from "../db/realm";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { renderForSending } from "../messages/compose";
import { normalizeContent } from "../messages/content";

/**
 * POST /messages/render (reference: render-message): content rendered exactly as a send by the
 * caller would render it (mentions, channel links, linkifiers, emoji), and the same content
 * rules (length, no null bytes), except that blank content renders as nothing rather than
 * being refused: a composer previews an empty box. Nobody is notified of its mentions.
 */
export async function renderMessagePreview(viewer: User, rawContent: string): Promise<string> {
  if (rawContent.trim() === "") return "";
  const content = normalizeContent(rawContent);
  return read(async (db) => (await renderForSending(db, viewer, await getRealm(db), content)).html);
}
