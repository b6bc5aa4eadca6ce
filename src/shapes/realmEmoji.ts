import { REALM_ID } from "../db/realm";
import type { RealmEmojiEntry } from "../db/realmEmoji";

/** A custom emoji as the reference's RealmEmoji: keyed by its ID as a string everywhere. */
export interface ApiRealmEmoji {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/** Where emoji images are served, relative to the organization's URL (as in the reference). */
export const EMOJI_IMAGES_PATH = `/user_avatars/${REALM_ID}/emoji/images`;

export const emojiSourceUrl = (fileName: string) => `${EMOJI_IMAGES_PATH}/${fileName}`;
export const emojiStillUrl = (fileName: string) => `${EMOJI_IMAGES_PATH}/still/${fileName}`;

export const realmEmojiToApi = (entry: RealmEmojiEntry): ApiRealmEmoji => ({
  id: String(entry.id),
  name: entry.name,
  source_url: emojiSourceUrl(entry.fileName),
  still_url: entry.animated ? emojiStillUrl(entry.fileName) : null,
  deactivated: entry.deactivated,
  author_id: entry.authorId,
});

/** The whole set, as GET /realm/emoji, register's realm_emoji and the realm_emoji event give it. */
export function realmEmojiDictionary(entries: readonly RealmEmojiEntry[]): Record<string, ApiRealmEmoji> {
  return Object.fromEntries(entries.map((entry) => [String(entry.id), realmEmojiToApi(entry)]));
}
