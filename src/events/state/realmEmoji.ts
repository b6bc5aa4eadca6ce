import { listRealmEmoji } from "../../db/realmEmoji";
import type { Reader } from "../../db/types";
import { realmEmojiDictionary } from "../../shapes/realmEmoji";

/** realm_emoji: every custom emoji, deactivated ones too (old messages still show them); the built-in ones are not listed, as in the reference. */
export async function realmEmojiState(db: Reader) {
  return { realm_emoji: realmEmojiDictionary(await listRealmEmoji(db)) };
}
