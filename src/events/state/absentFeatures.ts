import type { Reader } from "../../db/types";
import { mutedTopicsOf } from "../../db/userTopics";
import type { UserStateContext } from "./context";

/**
 * Register sections for features Parley does not have (yet): a client that asks for them gets
 * the reference's empty value rather than a missing key, which clients read as a server bug
 * (spec 4.19: custom_profile_fields, like alert_words, is "present if" asked for). No event ever
 * changes these, so a snapshot stays true for the life of the queue.
 */

/** The reference's field types (ids and names), though no field can be configured here. */
const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: "Text (short)" },
  LONG_TEXT: { id: 2, name: "Text (long)" },
  SELECT: { id: 3, name: "List of options" },
  DATE: { id: 4, name: "Date picker" },
  URL: { id: 5, name: "Link" },
  USER: { id: 6, name: "Person picker" },
  EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
  PRONOUNS: { id: 8, name: "Pronouns" },
};

export const customProfileFieldsState = () => ({ custom_profile_fields: [], custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES });

export const onboardingStepsState = () => ({ onboarding_steps: [], navigation_tour_video_url: null });

export const realmDomainsState = () => ({ realm_domains: [] });

/** Legacy linkifiers: always empty in the reference, which lists them in realm_linkifiers. */
export const realmFiltersState = () => ({ realm_filters: [] });

export const realmPlaygroundsState = () => ({ realm_playgrounds: [] });

export const realmEmbeddedBotsState = () => ({ realm_embedded_bots: [] });

export const realmIncomingWebhookBotsState = () => ({ realm_incoming_webhook_bots: [] });

export const defaultStreamGroupsState = () => ({ realm_default_stream_groups: [] });

/** Full-text search here is SQLite FTS5 without a stop-word list: no word is ignored. */
export const stopWordsState = () => ({ stop_words: [] as string[] });

export const videoCallsState = () => ({ has_zoom_token: false });

export const giphyState = () => ({ giphy_api_key: "" });

export const realmBillingState = () => ({ realm_billing: { has_pending_sponsorship_request: false } });

/**
 * The legacy muted_topics ([channel name, topic, muted at] per muted topic), which the
 * reference sends only when user_topic, which replaced it, is not asked for too.
 */
export async function mutedTopicsState(db: Reader, { viewer, realm, spec }: UserStateContext) {
  const shown = (topic: string) => (topic === "" && !spec.capabilities.empty_topic_name ? realm.settings.empty_topic_display_name : topic);
  return { muted_topics: (await mutedTopicsOf(db, viewer.id)).map(([name, topic, mutedAt]) => [name, shown(topic), mutedAt]) };
}
