import { batch, effect } from "@preact/signals";
import { dmKey, dmPeople, messageDmPeople } from "../model/narrow";
import type { Channel, Message, Reaction, ServerEvent, Subscription, User } from "../model/types";
import { settle } from "./echo";
import { addLiveMessage, fetchesInFlight, messages, messagesVersion, removeMessages, updateMessage } from "./messages";
import {
  channels,
  lastActive,
  me,
  mutedUsers,
  noteDmActivity,
  realm,
  realmEmoji,
  subscriptions,
  topicKey,
  userSettings,
  userStatus,
  userTopics,
  users,
} from "./store";
import { dmTypingKey, stoppedBySending, topicTypingKey, typingChanged } from "./typing";
import { addUnread, moveUnreads, placeOf, removeUnreads, unreads, type UnreadPlace } from "./unreads";

/**
 * Applies the event queue's batches to the chat's state. A batch is applied in one signals
 * batch (one redraw); while a GET /messages is under way, batches wait and are applied after
 * it lands, so a list can neither miss a message nor hold one twice. An event the chat cannot
 * read is skipped, never fatal.
 */

export interface NewMessageListener {
  (message: Message, fromMe: boolean): void;
}
const newMessageListeners: NewMessageListener[] = [];
/** Called for each new message from the queue (notifications, the live region). */
export const onNewMessage = (listener: NewMessageListener) => newMessageListeners.push(listener);

const held: ServerEvent[][] = [];

export function applyEvents(events: ServerEvent[]) {
  if (fetchesInFlight.value > 0) {
    held.push(events);
    return;
  }
  batch(() => {
    for (const event of events) {
      try {
        apply(event);
      } catch (error) {
        console.warn(`Skipped a ${event.type} event the chat could not apply:`, error);
      }
    }
  });
}

/** Held batches go as soon as no fetch is under way. */
effect(() => {
  if (fetchesInFlight.value > 0 || held.length === 0) return;
  const batches = held.splice(0);
  queueMicrotask(() => batches.forEach(applyEvents));
});

/** Drops what waited for the old queue: a new snapshot replaces it all. */
export const dropHeldEvents = () => void held.splice(0);

function replaceIn<K, V>(map: Map<K, V>, key: K, value: V | undefined): Map<K, V> {
  const next = new Map(map);
  if (value === undefined) next.delete(key);
  else next.set(key, value);
  return next;
}

function apply(event: ServerEvent) {
  switch (event.type) {
    case "message":
      return newMessage(event);
    case "update_message":
      return editedMessage(event);
    case "delete_message":
      return deletedMessages(event);
    case "reaction":
      return reaction(event);
    case "update_message_flags":
      return flags(event);
    case "typing":
      return typingEvent(event);
    case "subscription":
      return subscription(event);
    case "stream":
      return channel(event);
    case "realm_user":
      return realmUser(event);
    case "user_settings":
      if (event.op === "update") userSettings.value = { ...userSettings.value, [event.property as string]: event.value };
      return;
    case "user_status":
      return status(event);
    case "realm_emoji":
      realmEmoji.value = event.realm_emoji as typeof realmEmoji.value;
      return;
    case "muted_users":
      mutedUsers.value = new Set((event.muted_users as Array<{ id: number }>).map((muted) => muted.id));
      return;
    case "user_topic":
      userTopics.value = replaceIn(userTopics.value, topicKey(event.stream_id as number, event.topic_name as string), (event.visibility_policy as number) || undefined);
      return;
    case "presence":
      lastActive.value = replaceIn(lastActive.value, event.user_id as number, (event.server_timestamp as number) ?? Date.now() / 1000);
      return;
    case "realm":
      return realmEvent(event);
  }
}

function newMessage(event: ServerEvent) {
  const message = { ...(event.message as Message), flags: (event.flags as string[]) ?? [] };
  const fromMe = message.sender_id === me.value.userId;
  addLiveMessage(message);
  if (fromMe) settle(message.id, event.local_message_id as string | undefined);
  addUnread(message);
  if (message.type === "private") {
    const people = messageDmPeople(message, me.value.userId);
    noteDmActivity(people, message.id);
    stoppedBySending(dmTypingKey([...people, me.value.userId], me.value.userId), message.sender_id);
  } else if (message.stream_id !== undefined) stoppedBySending(topicTypingKey(message.stream_id, message.subject), message.sender_id);
  for (const listener of newMessageListeners) listener(message, fromMe);
}

function editedMessage(event: ServerEvent) {
  const ids = (event.message_ids as number[] | undefined) ?? [event.message_id as number];
  const newTopic = (event.subject ?? event.topic) as string | undefined;
  const newChannel = event.new_stream_id as number | undefined;
  for (const id of ids) {
    updateMessage(id, (message) => {
      const changed: Message = { ...message };
      if (id === event.message_id && typeof event.rendered_content === "string") changed.content = event.rendered_content;
      if (id === event.message_id && !event.rendering_only && typeof event.edit_timestamp === "number") changed.last_edit_timestamp = event.edit_timestamp;
      if (newTopic !== undefined) changed.subject = newTopic;
      if (newChannel !== undefined) {
        changed.stream_id = newChannel;
        changed.display_recipient = channels.value.get(newChannel)?.name ?? changed.display_recipient;
      }
      return changed;
    });
  }
  if (newTopic !== undefined || newChannel !== undefined)
    moveUnreads(ids, (place): UnreadPlace => ({ ...place, channelId: newChannel ?? place.channelId, topic: newTopic ?? place.topic }));
  messagesVersion.value++;
}

function deletedMessages(event: ServerEvent) {
  const ids = (event.message_ids as number[] | undefined) ?? [event.message_id as number];
  removeMessages(ids);
  removeUnreads(ids);
}

function reaction(event: ServerEvent) {
  const given: Reaction = { emoji_name: event.emoji_name as string, emoji_code: event.emoji_code as string, reaction_type: event.reaction_type as string, user_id: event.user_id as number };
  const same = (other: Reaction) => other.user_id === given.user_id && other.emoji_code === given.emoji_code && other.reaction_type === given.reaction_type;
  updateMessage(event.message_id as number, (message) => ({
    ...message,
    reactions: event.op === "add" ? [...message.reactions.filter((other) => !same(other)), given] : message.reactions.filter((other) => !same(other)),
  }));
  messagesVersion.value++;
}

type FlagDetails = Record<string, { type: "stream" | "private"; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }>;

function flags(event: ServerEvent) {
  const flag = event.flag as string;
  const add = event.op === "add";
  const ids = event.messages as number[];
  if (flag === "read") {
    if (add) {
      // `all`: everything was marked read.
      if (event.all) unreads.value = new Map();
      else removeUnreads(ids);
    } else {
      const details = (event.message_details ?? {}) as FlagDetails;
      const next = new Map(unreads.value);
      for (const id of ids) {
        const known = messages.get(id);
        const detail = details[id];
        if (known) next.set(id, placeOf(known));
        else if (detail?.type === "stream") next.set(id, { channelId: detail.stream_id, topic: detail.topic ?? "", mentioned: !!detail.mentioned });
        else if (detail?.type === "private") next.set(id, { dm: dmKey(dmPeople(detail.user_ids ?? [], me.value.userId)), mentioned: !!detail.mentioned });
      }
      unreads.value = next;
    }
  }
  for (const id of event.all ? [...messages.keys()] : ids) {
    updateMessage(id, (message) => ({
      ...message,
      flags: add ? [...new Set([...message.flags, flag])] : message.flags.filter((other) => other !== flag),
    }));
  }
  messagesVersion.value++;
}

function typingEvent(event: ServerEvent) {
  const sender = (event.sender as { user_id: number }).user_id;
  if (sender === me.value.userId) return;
  const key =
    event.message_type === "stream"
      ? topicTypingKey(event.stream_id as number, event.topic as string)
      : dmTypingKey((event.recipients as Array<{ user_id: number }>).map((person) => person.user_id), me.value.userId);
  typingChanged(key, sender, event.op === "start", realm.value.typingExpiryMs || 15_000);
}

function subscription(event: ServerEvent) {
  const subs = event.subscriptions as Subscription[] | undefined;
  if (event.op === "add" && subs) {
    const next = new Map(subscriptions.value);
    const known = new Map(channels.value);
    for (const sub of subs) {
      next.set(sub.stream_id, sub);
      known.set(sub.stream_id, sub);
    }
    batch(() => ((subscriptions.value = next), (channels.value = known)));
  } else if (event.op === "remove" && subs) {
    const next = new Map(subscriptions.value);
    for (const sub of subs) next.delete(sub.stream_id);
    subscriptions.value = next;
  } else if (event.op === "update") {
    const id = event.stream_id as number;
    const sub = subscriptions.value.get(id);
    const property = event.property === "in_home_view" ? "is_muted" : (event.property as string);
    const value = event.property === "in_home_view" ? !event.value : event.value;
    if (sub) subscriptions.value = replaceIn(subscriptions.value, id, { ...sub, [property]: value });
  }
}

function channel(event: ServerEvent) {
  if (event.op === "create") {
    const next = new Map(channels.value);
    for (const created of event.streams as Channel[]) next.set(created.stream_id, created);
    channels.value = next;
  } else if (event.op === "delete") {
    const next = new Map(channels.value);
    const subs = new Map(subscriptions.value);
    for (const gone of event.streams as Channel[]) {
      next.delete(gone.stream_id);
      subs.delete(gone.stream_id);
    }
    batch(() => ((channels.value = next), (subscriptions.value = subs)));
  } else if (event.op === "update") {
    const id = event.stream_id as number;
    const change = { [event.property as string]: event.value };
    const known = channels.value.get(id);
    const sub = subscriptions.value.get(id);
    batch(() => {
      if (known) channels.value = replaceIn(channels.value, id, { ...known, ...change });
      if (sub) subscriptions.value = replaceIn(subscriptions.value, id, { ...sub, ...change });
    });
  }
}

function realmUser(event: ServerEvent) {
  const person = event.person as Partial<User> & { user_id: number };
  const known = users.value.get(person.user_id);
  if (event.op === "add") users.value = replaceIn(users.value, person.user_id, person as User);
  else if (event.op === "remove" && known) users.value = replaceIn(users.value, person.user_id, { ...known, is_active: false });
  else if (event.op === "update" && known) {
    const updated = { ...known, ...person };
    users.value = replaceIn(users.value, person.user_id, updated);
    if (person.user_id === me.value.userId)
      me.value = { ...me.value, fullName: updated.full_name, avatarUrl: updated.avatar_url, isAdmin: updated.role <= 200, isModerator: updated.role <= 300, isGuest: updated.role === 600 };
  }
}

function status(event: ServerEvent) {
  const id = String(event.user_id);
  const { type: _type, id: _id, user_id: _user, ...fields } = event;
  const merged = { ...userStatus.value[id], ...fields };
  const next = { ...userStatus.value };
  if (!merged.status_text && !merged.emoji_name && !merged.away) delete next[id];
  else next[id] = merged;
  userStatus.value = next;
}

const REALM_FIELDS: Record<string, keyof typeof realm.value> = {
  name: "name",
  allow_message_editing: "allowEditing",
  message_content_edit_limit_seconds: "editLimitSeconds",
  message_content_delete_limit_seconds: "deleteLimitSeconds",
  mandatory_topics: "mandatoryTopics",
};

function realmEvent(event: ServerEvent) {
  const changes: Record<string, unknown> =
    event.op === "update" ? { [event.property as string]: event.value } : event.op === "update_dict" ? ((event.data as Record<string, unknown>) ?? {}) : {};
  const next = { ...realm.value } as Record<string, unknown>;
  for (const [property, value] of Object.entries(changes)) if (REALM_FIELDS[property]) next[REALM_FIELDS[property]] = value;
  realm.value = next as unknown as typeof realm.value;
}
