import { Slice, workingInSlices, yieldToOthers } from "../../db/slices";
import { read } from "../../db/transaction";
import type { Reader } from "../../db/types";
import * as absent from "./absentFeatures";
import type { Fields, StateContext, UserStateContext } from "./context";
import { alertWordsState } from "./alertWords";
import { defaultStreamsState, streamState, subscriptionState } from "./channels";
import { draftsState } from "./drafts";
import { realmLinkifiersState } from "./linkifiers";
import { starredMessagesState, unreadMsgsState } from "./messageFlags";
import { maxMessageIdState, recentPrivateConversationsState, userTopicsState } from "./messages";
import { mutedUsersState } from "./mutedUsers";
import { presenceState } from "./presence";
import { realmBotState } from "./realmBots";
import { realmState } from "./realm";
import { realmEmojiState } from "./realmEmoji";
import { realmUserState } from "./realmUsers";
import { realmUserSettingsDefaultsState } from "./realmUserSettingsDefaults";
import { savedSnippetsState } from "./savedSnippets";
import { scheduledMessagesState } from "./scheduledMessages";
import { userGroupsState } from "./userGroups";
import { legacyDisplaySettingsState, legacyNotificationSettingsState, userSettingsState } from "./userSettings";
import { userStatusState } from "./userStatus";

/**
 * The initial state register returns, one section per fetch_event_types name. A feature adds
 * its section with a file here and one line in SECTIONS; a section builds everything its
 * events later keep up to date, and nothing else.
 */

/**
 * `unless`: another section that replaces this one when the request names it; with
 * fetch_event_types omitted both come, as in the reference (muted_topics beside user_topic).
 * A section too large to build within one slice of time reads in slices of its own (buildInSlices).
 */
type Section =
  | { spectators: true; build: (db: Reader, context: StateContext) => Fields | Promise<Fields>; unless?: string }
  | { spectators: false; build: (db: Reader, context: UserStateContext) => Fields | Promise<Fields>; unless?: string }
  | { spectators: false; buildInSlices: (context: UserStateContext) => Promise<Fields>; unless?: string };

const SECTIONS: Record<string, Section> = {
  realm: { spectators: true, build: realmState },
  realm_user: { spectators: false, build: realmUserState },
  realm_bot: { spectators: false, build: realmBotState },
  realm_user_groups: { spectators: false, build: userGroupsState },
  realm_user_settings_defaults: { spectators: false, build: realmUserSettingsDefaultsState },
  user_settings: { spectators: false, build: userSettingsState },
  drafts: { spectators: false, build: draftsState },
  scheduled_messages: { spectators: false, build: scheduledMessagesState },
  update_display_settings: { spectators: false, build: legacyDisplaySettingsState },
  update_global_notifications: { spectators: false, build: legacyNotificationSettingsState },
  subscription: { spectators: false, build: subscriptionState },
  stream: { spectators: false, build: streamState },
  default_streams: { spectators: false, build: defaultStreamsState },
  message: { spectators: false, build: maxMessageIdState },
  recent_private_conversations: { spectators: false, build: recentPrivateConversationsState },
  user_topic: { spectators: false, build: userTopicsState },
  update_message_flags: { spectators: false, buildInSlices: unreadMsgsState },
  starred_messages: { spectators: false, build: starredMessagesState },
  realm_linkifiers: { spectators: true, build: realmLinkifiersState },
  realm_emoji: { spectators: true, build: realmEmojiState },
  saved_snippets: { spectators: false, build: savedSnippetsState },
  user_status: { spectators: false, build: userStatusState },
  presence: { spectators: false, build: presenceState },
  alert_words: { spectators: false, build: alertWordsState },
  muted_users: { spectators: false, build: mutedUsersState },
  // Features Parley lacks: the reference's empty values (absentFeatures.ts).
  custom_profile_fields: { spectators: true, build: absent.customProfileFieldsState },
  onboarding_steps: { spectators: false, build: absent.onboardingStepsState },
  muted_topics: { spectators: false, build: absent.mutedTopicsState, unless: "user_topic" },
  realm_domains: { spectators: false, build: absent.realmDomainsState },
  realm_filters: { spectators: true, build: absent.realmFiltersState },
  realm_playgrounds: { spectators: true, build: absent.realmPlaygroundsState },
  realm_embedded_bots: { spectators: false, build: absent.realmEmbeddedBotsState },
  realm_incoming_webhook_bots: { spectators: false, build: absent.realmIncomingWebhookBotsState },
  default_stream_groups: { spectators: false, build: absent.defaultStreamGroupsState },
  stop_words: { spectators: false, build: absent.stopWordsState },
  video_calls: { spectators: false, build: absent.videoCallsState },
  giphy: { spectators: false, build: absent.giphyState },
  realm_billing: { spectators: false, build: absent.realmBillingState },
};

/**
 * The sections asked for (null: all); names this server does not know are ignored. Sections
 * are read a slice at a time (db/slices.ts): as many as fit in one read transaction, then the
 * event loop serves others. A section may so be read a little after another; since register
 * makes the queue first, a change in between is at worst both in the state and in the queue.
 */
export function buildState(context: StateContext | UserStateContext, fetchEventTypes: readonly string[] | null): Promise<Fields> {
  return workingInSlices(() => build(context, "viewer" in context, fetchEventTypes));
}

/**
 * How register begins the state of a signed-in client: `open` runs first in the first read, on
 * its snapshot, before any section (register makes its queue there), and gives the context the
 * sections are built for; `read` runs that first read (register's takes its snapshot at a
 * moment when every commit before it has been published, register.ts). The sections of the
 * first slice so see exactly the changes the queue will not get.
 */
export interface StateOpening {
  read<T>(reads: (db: Reader) => Promise<T>): Promise<T>;
  open(db: Reader): Promise<UserStateContext>;
}

/** buildState for a signed-in client whose context the first read gives (StateOpening). */
export function buildStateOpening(opening: StateOpening, fetchEventTypes: readonly string[] | null): Promise<Fields> {
  return workingInSlices(() => build(opening, true, fetchEventTypes));
}

async function build(from: StateContext | UserStateContext | StateOpening, forUser: boolean, fetchEventTypes: readonly string[] | null): Promise<Fields> {
  const chosen = Object.entries(SECTIONS)
    .filter(([name, section]) => {
      if (fetchEventTypes !== null && !fetchEventTypes.includes(name)) return false;
      if (section.unless !== undefined && fetchEventTypes !== null && fetchEventTypes.includes(section.unless)) return false;
      return section.spectators || forUser;
    })
    .map(([, section]) => section);
  const opening = "open" in from ? from : null;
  let context = opening ? undefined : (from as StateContext | UserStateContext);
  const state: Fields = {};
  let next = 0;
  // An opening needs the first read, whatever the sections are.
  while (context === undefined || next < chosen.length) {
    const section = chosen[next];
    if (context !== undefined && "buildInSlices" in section) {
      Object.assign(state, await section.buildInSlices(context as UserStateContext));
      next++;
      continue;
    }
    await (context === undefined ? opening!.read : read)(async (db) => {
      context ??= await opening!.open(db);
      const slice = new Slice();
      while (next < chosen.length) {
        const one = chosen[next];
        if (!("build" in one)) break;
        Object.assign(state, await one.build(db, context as UserStateContext));
        next++;
        if (slice.over) break;
      }
    });
    if (next < chosen.length) await yieldToOthers();
  }
  return state;
}
