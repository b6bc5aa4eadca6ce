/**
 * Every event the server sends, as one discriminated union. Each feature defines its event
 * shapes in events/kinds/<feature>.ts and adds its union here.
 */
import type { AlertWordsEvent } from "./kinds/alertWords";
import type { AttachmentEvent } from "./kinds/attachments";
import type { ChannelEvent } from "./kinds/channels";
import type { DraftsEvent } from "./kinds/drafts";
import type { InvitesChangedEvent } from "./kinds/invites";
import type { RealmLinkifiersEvent } from "./kinds/linkifiers";
import type { RealmEvent } from "./kinds/realm";
import type { RealmEmojiEvent } from "./kinds/realmEmoji";
import type { MessageEditEvent } from "./kinds/messageEdits";
import type { MessageFlagsEvent } from "./kinds/messageFlags";
import type { MessageSendEvent } from "./kinds/messages";
import type { PresenceEvent } from "./kinds/presence";
import type { MutedUsersEvent } from "./kinds/mutedUsers";
import type { RealmUserSettingsDefaultsEvent } from "./kinds/realmUserSettingsDefaults";
import type { SavedSnippetsEvent } from "./kinds/savedSnippets";
import type { ScheduledMessagesEvent } from "./kinds/scheduledMessages";
import type { LegacySettingsEvent } from "./kinds/settings";
import type { TypingEditMessageEvent, TypingEvent } from "./kinds/typing";
import type { UserEvent } from "./kinds/users";
import type { UserGroupEvent } from "./kinds/userGroups";
import type { UserStatusEvent } from "./kinds/userStatus";
import type { MutedTopicsEvent } from "./kinds/userTopics";

export type AnyEvent = UserEvent | LegacySettingsEvent | ChannelEvent | MessageEditEvent | MessageSendEvent | MessageFlagsEvent | RealmLinkifiersEvent | RealmEmojiEvent | SavedSnippetsEvent | UserStatusEvent | TypingEvent | TypingEditMessageEvent | RealmUserSettingsDefaultsEvent | DraftsEvent | UserGroupEvent | ScheduledMessagesEvent | InvitesChangedEvent | MutedTopicsEvent | AlertWordsEvent | MutedUsersEvent | PresenceEvent | AttachmentEvent | RealmEvent;

/**
 * How an event reaches queues beyond "every queue of these users". Message events use these;
 * everything else needs none (see the guide at the top of events/registry.ts).
 */
export interface DeliveryOptions {
  /** Per-recipient message flags: each queue's copy gets `flags` for its own user ([] if absent). */
  flagsByUser?: ReadonlyMap<number, string[]>;
  /** A message in a public channel: also goes to every all_public_streams queue, with flags []. */
  publicChannel?: boolean;
  /**
   * With publicChannel, when a message goes out in several copies (one per e-mail visibility):
   * users another copy addresses, whose all_public_streams queues must not get this one too.
   */
  addressedElsewhere?: ReadonlySet<number>;
  /** Local echo: the sending client's queue gets `local_id` on its copy. */
  localEcho?: { queueId: string; localId: string };
}

// What tx.emit takes (see Emitted in db/types.ts): an event together with the users who should
// receive it, and how it reaches their queues.
declare module "../db/types" {
  interface Emitted {
    event: AnyEvent;
    options?: DeliveryOptions;
  }
}
