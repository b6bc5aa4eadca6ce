import { badRequest } from "../http/errors";
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from "../model/limits";
import type { RealmSettings } from "../model/realmSettings";

/** What a message's text and topic must be (spec 4.1, convention 5, limits 8). */

/** Spelling clients use for the empty topic (reference: feature level 370). */
export const NO_TOPIC = "(no topic)";

/** Topics marked resolved carry this prefix (reference: RESOLVED_TOPIC_PREFIX). */
export const RESOLVED_TOPIC_PREFIX = "✔ ";

// A string's UTF-16 length is never below its count of code points, so most texts need no count.
const longerThan = (text: string, limit: number) => text.length > limit && [...text].length > limit;

/** Content as stored: trailing whitespace and leading blank lines dropped, never empty. */
export function normalizeContent(raw: string): string {
  const content = raw.trimEnd().replace(/^\n+/, "");
  if (content === "") throw badRequest("Message must not be empty");
  if (content.includes("\u0000")) throw badRequest("Message must not contain null bytes");
  if (longerThan(content, MAX_MESSAGE_LENGTH)) throw badRequest(`Message too long (limit: ${MAX_MESSAGE_LENGTH} characters).`);
  return content;
}

// Control characters, lone surrogates and unassigned code points cannot be shown in a topic.
const UNSHOWABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

/**
 * A channel message's topic as stored: trimmed, with "(no topic)" and the organization's
 * display name for the empty topic meaning "" — which is refused when topics are mandatory.
 */
export function normalizeTopic(raw: string | undefined, settings: Pick<RealmSettings, "mandatory_topics" | "empty_topic_display_name">): string {
  if (raw === undefined) throw badRequest("Missing topic");
  let topic = raw.trim();
  if (topic === NO_TOPIC || topic === settings.empty_topic_display_name) topic = "";
  if (topic === "" && settings.mandatory_topics) throw badRequest("Topics are required in this organization.");
  if (longerThan(topic, MAX_TOPIC_LENGTH)) throw badRequest(`Topic too long (limit: ${MAX_TOPIC_LENGTH} characters).`);
  const bad = UNSHOWABLE.test(topic) ? [...topic].findIndex((character) => UNSHOWABLE.test(character)) : -1;
  if (bad >= 0) throw badRequest(`Invalid character in topic, at position ${bad + 1}!`);
  return topic;
}
