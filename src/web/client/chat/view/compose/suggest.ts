import { searchEmoji, type EmojiChoice } from "../../emoji/data";
import { activeUsers, channels, me, realm, subscriptions } from "../../state/store";
import {
  channelText,
  emojiText,
  matchChannels,
  matchPeople,
  matchTopics,
  matchWildcards,
  mentionText,
  topicLinkText,
  wildcardText,
  type Token,
} from "./autocomplete";
import { loadTopics, topicsByChannel } from "../../state/topics";

/**
 * The choices a list shows, from what the chat knows (people, channels, topics, emoji). Each
 * read of a signal here makes the view that asked redraw when it changes (topics arriving,
 * the emoji data loading).
 */

/**
 * A channel's topic names, newest first, from the shared topic lists (fetched on first need,
 * kept current by new messages). The server names the empty topic by its display name here.
 */
function channelTopics(channelId: number): string[] {
  loadTopics(channelId);
  return topicsByChannel.value.get(channelId)?.map((topic) => topic.name) ?? [];
}

export interface Choice {
  /** Unique within the list, for the option's id. */
  key: string;
  kind: "person" | "wildcard" | "channel" | "topic" | "emoji";
  label: string;
  detail?: string;
  /** The text that replaces the token (or, in a field, becomes its value). */
  insert: string;
  /** With ">" instead of Enter: a channel's text that goes on to its topics. */
  insertThenTopic?: string;
  userId?: number;
  avatarUrl?: string | null;
  emoji?: EmojiChoice;
  privateChannel?: boolean;
}

const LIMIT = 8;

export function choicesForToken(token: Token, toChannel: boolean): Choice[] {
  switch (token.kind) {
    case "person": {
      const people = activeUsers.value;
      const others = people.filter((person) => person.user_id !== me.value.userId);
      const found: Choice[] = matchPeople(token.query, others, LIMIT).map((person) => ({
        key: `u${person.user_id}`,
        kind: "person",
        label: person.full_name,
        detail: person.email,
        insert: mentionText(person, people, token.silent),
        userId: person.user_id,
        avatarUrl: person.avatar_url,
      }));
      return found.concat(
        matchWildcards(token.query, toChannel, token.silent).map((wildcard) => ({ key: `w${wildcard.name}`, kind: "wildcard", label: wildcard.name, detail: wildcard.detail, insert: wildcardText(wildcard.name) })),
      );
    }
    case "channel": {
      const subscribed = new Set(subscriptions.value.keys());
      return matchChannels(token.query, [...channels.value.values()], subscribed, LIMIT).map((channel) => ({
        key: `c${channel.stream_id}`,
        kind: "channel",
        label: channel.name,
        detail: channel.description || undefined,
        insert: channelText(channel.name),
        insertThenTopic: channelText(channel.name, true),
        privateChannel: channel.invite_only,
      }));
    }
    case "topic": {
      const wanted = token.channel.toLowerCase();
      const channel = [...channels.value.values()].find((candidate) => candidate.name.toLowerCase() === wanted);
      if (!channel) return [];
      // The empty topic has no link syntax of its own.
      const topics = channelTopics(channel.stream_id).filter((topic) => topic !== "" && topic !== realm.value.emptyTopicName);
      return matchTopics(token.query, topics, LIMIT).map((topic) => ({ key: `t${topic}`, kind: "topic", label: topic, detail: `#${channel.name}`, insert: topicLinkText(channel.name, topic) }));
    }
    case "emoji":
      return searchEmoji(token.query, LIMIT).map((emoji) => ({ key: `e${emoji.type}:${emoji.name}`, kind: "emoji", label: `:${emoji.name}:`, insert: emojiText(emoji.name), emoji }));
  }
}

/** The topic field's choices: the channel's topics, newest first (the empty one, under its display name, only where allowed). */
export function topicFieldChoices(channelId: number, query: string): Choice[] {
  const empty = realm.value.emptyTopicName;
  const topics = channelTopics(channelId)
    .map((topic) => topic || empty)
    .filter((topic) => topic !== empty || !realm.value.mandatoryTopics);
  return matchTopics(query, topics, LIMIT).map((topic) => ({ key: `t${topic}`, kind: "topic", label: topic, insert: topic === empty ? "" : topic }));
}

/** The people field's choices: anyone active not yet chosen (me too, for a note to self). */
export function peopleChoices(query: string, chosen: number[]): Choice[] {
  const taken = new Set(chosen);
  const people = activeUsers.value.filter((person) => !taken.has(person.user_id));
  // Me last: writing to oneself is the rare case.
  const ordered = [...people.filter((person) => person.user_id !== me.value.userId), ...people.filter((person) => person.user_id === me.value.userId)];
  return matchPeople(query, ordered, LIMIT).map((person) => ({
    key: `u${person.user_id}`,
    kind: "person",
    label: person.full_name,
    detail: person.email,
    insert: person.full_name,
    userId: person.user_id,
    avatarUrl: person.avatar_url,
  }));
}
