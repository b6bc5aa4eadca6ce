import type { ApiRealmEmoji } from "../../shapes/realmEmoji";

/** The whole set of custom emoji after one was added or deactivated; to everyone in the organization. */
export interface RealmEmojiEvent {
  type: "realm_emoji";
  op: "update";
  realm_emoji: Record<string, ApiRealmEmoji>;
}
