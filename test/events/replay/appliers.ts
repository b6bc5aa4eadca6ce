import { createHash } from "node:crypto";
import type { Event, State } from "../support";
import { applyUnreadFlags, applyUnreadMessage, applyUnreadMove, forgetUnread, rebuildUnread, unreadIndex } from "./unread";

/**
 * What a client does with each event: the reference's apply_events, one applier per event
 * type and op, for the register sections the events keep current. An event no applier
 * knows fails the replay, so a new kind cannot go unreplayed.
 */

type Applier = (state: State, event: Event) => void;

const byId = <T extends Record<string, any>>(key: string) => (a: T, b: T) => a[key] - b[key];
const byName = (a: State, b: State) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const upsert = (list: State[], key: string, item: State) => {
  const at = list.findIndex((each) => each[key] === item[key]);
  if (at === -1) list.push(item);
  else list[at] = item;
};
const nothing: Applier = () => {};

/** The channel lists of the subscription and stream sections. */
const channelLists = (state: State): State[][] => [state.streams, state.subscriptions, state.unsubscribed, state.never_subscribed].filter(Array.isArray);
const ROLE_FLAGS = (role: number) => ({ is_owner: role === 100, is_admin: role <= 200, is_moderator: role <= 300, is_guest: role === 600 });

function sortUsers(state: State) {
  for (const key of ["realm_users", "realm_non_active_users"]) state[key]?.sort(byId("user_id"));
}

/** Scheduled messages are listed soonest first, as the reference lists them. */
const sortScheduled = (state: State) => state.scheduled_messages.sort((a: State, b: State) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);

export const APPLIERS: Record<string, Applier> = {
  // The registry's own events: a restart tells which server generation now answers.
  heartbeat: nothing,
  restart(state, { server_generation }) {
    if ("server_generation" in state) state.server_generation = server_generation;
  },
  // Nobody's state shows who is typing or which reactions a message has.
  "typing start": nothing,
  "typing stop": nothing,
  "typing_edit_message start": nothing,
  "typing_edit_message stop": nothing,
  "reaction add": nothing,
  "reaction remove": nothing,
  // Invitations have no register section; clients refetch GET /invites.
  invites_changed: nothing,

  "realm_user add"(state, { person }) {
    upsert(state.realm_users, "user_id", person);
    state.realm_non_active_users = state.realm_non_active_users.filter((user: State) => user.user_id !== person.user_id);
    sortUsers(state);
  },
  "realm_user update"(state, { person }) {
    // An avatar change also names its source and medium size, which only the person's own
    // top-level fields hold (the reference's apply_event); the user entry keeps URL and version.
    const { user_id, new_email, avatar_source, avatar_url_medium, ...changes } = person;
    if (new_email !== undefined) changes.email = new_email;
    if (changes.role !== undefined) Object.assign(changes, ROLE_FLAGS(changes.role));
    for (const list of [state.realm_users, state.realm_non_active_users]) {
      const user = list.find((each: State) => each.user_id === user_id);
      if (!user) continue;
      const { is_moderator: _clientSide, ...shown } = changes;
      Object.assign(user, shown);
    }
    if (user_id === state.user_id) {
      for (const key of ["full_name", "email", "delivery_email", "is_owner", "is_admin", "is_moderator", "is_guest"]) if (changes[key] !== undefined) state[key] = changes[key];
      if (changes.timezone !== undefined) state.user_settings.timezone = changes.timezone;
      // A client_gravatar client is sent no Gravatar URL and makes it from the e-mail itself.
      if (avatar_source !== undefined && "avatar_source" in state) {
        const gravatar = `https://secure.gravatar.com/avatar/${createHash("md5").update(state.email.toLowerCase()).digest("hex")}?d=identicon&version=${changes.avatar_version}`;
        Object.assign(state, { avatar_source, avatar_url: changes.avatar_url ?? gravatar, avatar_url_medium: avatar_url_medium ?? gravatar });
      }
    }
    if (changes.is_active !== undefined) {
      const everyone = [...state.realm_users, ...state.realm_non_active_users];
      state.realm_users = everyone.filter((user: State) => user.is_active);
      state.realm_non_active_users = everyone.filter((user: State) => !user.is_active);
      sortUsers(state);
      // Group member lists hold active users only; a client that sees someone leave drops
      // them from every group itself (the server tells only those who cannot see them).
      if (changes.is_active === false) {
        for (const group of state.realm_user_groups ?? []) group.members = group.members?.filter((id: number) => id !== user_id);
      }
    }
  },
  "realm_bot add"(state, { bot }) {
    upsert(state.realm_bots, "user_id", bot);
    state.realm_bots.sort(byId("user_id"));
  },
  "realm_bot update"(state, { bot }) {
    const known = state.realm_bots.find((each: State) => each.user_id === bot.user_id);
    if (known) Object.assign(known, bot);
  },
  "user_settings update"(state, { property, value }) {
    state.user_settings[property] = value;
  },
  update_display_settings(state, { setting_name, setting }) {
    state[setting_name] = setting;
  },
  update_global_notifications(state, { notification_name, setting }) {
    state[notification_name] = setting;
  },
  // The organization's settings (the reference's apply_events): realm_<property>, except the
  // upload limit, which the register names without the prefix.
  "realm update"(state, { property, value }) {
    if ("realm_name" in state) state[`realm_${property}`] = value;
  },
  "realm update_dict"(state, { data }) {
    if (!("realm_name" in state)) return;
    for (const [key, value] of Object.entries(data)) state[key === "max_file_upload_size_mib" ? key : `realm_${key}`] = value;
  },
  "realm_user_settings_defaults update"(state, { property, value }) {
    state.realm_user_settings_defaults[property] = value;
  },
  user_status(state, { id: _id, type: _type, user_id, ...changes }) {
    const status = { ...state.user_status[user_id] };
    if (changes.away !== undefined) changes.away ? (status.away = true) : delete status.away;
    if (changes.status_text !== undefined) changes.status_text ? (status.status_text = changes.status_text) : delete status.status_text;
    if (changes.emoji_name !== undefined) {
      if (changes.emoji_name) Object.assign(status, { emoji_name: changes.emoji_name, emoji_code: changes.emoji_code, reaction_type: changes.reaction_type });
      else for (const key of ["emoji_name", "emoji_code", "reaction_type"]) delete status[key];
    }
    if (Object.keys(status).length > 0) state.user_status[user_id] = status;
    else delete state.user_status[user_id];
  },

  // Presence in the form the client registered for: simplified events carry `presences` keyed
  // by user ID; legacy ones one client's status, which is also the aggregated one.
  presence(state, event) {
    if (event.presences) return void Object.assign(state.presences, event.presences);
    const { pushable: _pushable, ...aggregated } = event.presence.website;
    state.presences[event.email] = { website: event.presence.website, aggregated };
  },

  "drafts add"(state, { drafts }) {
    for (const draft of drafts) upsert(state.drafts, "id", draft);
  },
  "drafts update"(state, { draft }) {
    upsert(state.drafts, "id", draft);
  },
  "drafts remove"(state, { draft_id }) {
    state.drafts = state.drafts.filter((draft: State) => draft.id !== draft_id);
  },
  "scheduled_messages add"(state, { scheduled_messages }) {
    for (const message of scheduled_messages) upsert(state.scheduled_messages, "scheduled_message_id", message);
    sortScheduled(state);
  },
  "scheduled_messages update"(state, { scheduled_message }) {
    upsert(state.scheduled_messages, "scheduled_message_id", scheduled_message);
    sortScheduled(state);
  },
  "scheduled_messages remove"(state, { scheduled_message_id }) {
    state.scheduled_messages = state.scheduled_messages.filter((message: State) => message.scheduled_message_id !== scheduled_message_id);
  },
  "saved_snippets add"(state, { saved_snippet }) {
    upsert(state.saved_snippets, "id", saved_snippet);
  },
  "saved_snippets update"(state, { saved_snippet }) {
    upsert(state.saved_snippets, "id", saved_snippet);
  },
  "saved_snippets remove"(state, { saved_snippet_id }) {
    state.saved_snippets = state.saved_snippets.filter((snippet: State) => snippet.id !== saved_snippet_id);
  },
  // Register has no uploads section; a client keeps GET /attachments current with these
  // (replay/attachments.ts applies them to that list).
  "attachment add"(state, { attachment, upload_space_used }) {
    if (!Array.isArray(state.attachments)) return;
    upsert(state.attachments, "id", attachment);
    state.upload_space_used = upload_space_used;
  },
  "attachment update"(state, { attachment, upload_space_used }) {
    if (!Array.isArray(state.attachments)) return;
    upsert(state.attachments, "id", attachment);
    state.upload_space_used = upload_space_used;
  },
  "attachment remove"(state, { attachment, upload_space_used }) {
    if (!Array.isArray(state.attachments)) return;
    state.attachments = state.attachments.filter((each: State) => each.id !== attachment.id);
    state.upload_space_used = upload_space_used;
  },
  // Both carry the whole new list.
  alert_words(state, { alert_words }) {
    state.alert_words = alert_words;
  },
  muted_users(state, { muted_users }) {
    state.muted_users = muted_users;
  },
  realm_linkifiers(state, { realm_linkifiers }) {
    state.realm_linkifiers = realm_linkifiers;
  },
  "realm_emoji update"(state, { realm_emoji }) {
    state.realm_emoji = realm_emoji;
  },

  "user_group add"(state, { group }) {
    upsert(state.realm_user_groups, "id", group);
    state.realm_user_groups.sort(byId("id"));
  },
  /** Made by the registry from a deactivation, for clients without include_deactivated_groups. */
  "user_group remove"(state, { group_id }) {
    state.realm_user_groups = state.realm_user_groups.filter((group: State) => group.id !== group_id);
  },
  "user_group update"(state, { group_id, data }) {
    Object.assign(state.realm_user_groups.find((group: State) => group.id === group_id), data);
  },
  "user_group add_members"(state, { group_id, user_ids }) {
    const group = state.realm_user_groups.find((each: State) => each.id === group_id);
    group.members = [...new Set([...group.members, ...user_ids])].sort((a, b) => a - b);
  },
  "user_group remove_members"(state, { group_id, user_ids }) {
    const group = state.realm_user_groups.find((each: State) => each.id === group_id);
    group.members = group.members.filter((id: number) => !user_ids.includes(id));
  },
  "user_group add_subgroups"(state, { group_id, direct_subgroup_ids }) {
    const group = state.realm_user_groups.find((each: State) => each.id === group_id);
    group.direct_subgroup_ids = [...new Set([...group.direct_subgroup_ids, ...direct_subgroup_ids])].sort((a, b) => a - b);
  },
  "user_group remove_subgroups"(state, { group_id, direct_subgroup_ids }) {
    const group = state.realm_user_groups.find((each: State) => each.id === group_id);
    group.direct_subgroup_ids = group.direct_subgroup_ids.filter((id: number) => !direct_subgroup_ids.includes(id));
  },

  "stream create"(state, { streams }) {
    const subscribed = new Set(state.subscriptions.map((sub: State) => sub.stream_id));
    for (const stream of streams) {
      upsert(state.streams, "stream_id", stream);
      if (!subscribed.has(stream.stream_id)) {
        state.unsubscribed = state.unsubscribed.filter((sub: State) => sub.stream_id !== stream.stream_id);
        upsert(state.never_subscribed, "stream_id", { ...stream, ...(state.__includeSubscribers ? { subscribers: stream.subscribers ?? [] } : {}) });
      }
    }
    for (const list of channelLists(state)) list.sort(byName);
  },
  "stream delete"(state, { stream_ids }) {
    const gone = (channel: State) => !stream_ids.includes(channel.stream_id);
    for (const key of ["streams", "subscriptions", "unsubscribed", "never_subscribed"]) state[key] = state[key].filter(gone);
  },
  "stream update"(state, { stream_id, property, value, ...rest }) {
    const extra: State = {};
    for (const key of ["rendered_description", "history_public_to_subscribers", "is_web_public"]) if (rest[key] !== undefined) extra[key] = rest[key];
    for (const list of channelLists(state)) {
      const channel = list.find((each) => each.stream_id === stream_id);
      if (channel) Object.assign(channel, { [property]: value }, extra);
    }
    for (const list of channelLists(state)) list.sort(byName);
  },
  "subscription add"(state, { subscriptions }) {
    for (const sub of subscriptions) {
      state.unsubscribed = state.unsubscribed.filter((each: State) => each.stream_id !== sub.stream_id);
      state.never_subscribed = state.never_subscribed.filter((each: State) => each.stream_id !== sub.stream_id);
      // Clients that did not ask for subscribers drop them, as the reference's apply_event does.
      const { subscribers, ...channel } = sub;
      upsert(state.subscriptions, "stream_id", state.__includeSubscribers ? { ...channel, subscribers } : channel);
      if (!state.streams.some((each: State) => each.stream_id === sub.stream_id)) state.streams.push(channel);
    }
    for (const list of channelLists(state)) list.sort(byName);
  },
  "subscription remove"(state, { subscriptions }) {
    for (const { stream_id } of subscriptions) {
      const sub = state.subscriptions.find((each: State) => each.stream_id === stream_id);
      state.subscriptions = state.subscriptions.filter((each: State) => each.stream_id !== stream_id);
      // The leaver hears no peer_remove about themselves (the reference's apply_event does this).
      if (sub && Array.isArray(sub.subscribers)) sub.subscribers = sub.subscribers.filter((id: number) => id !== state.user_id);
      if (sub) state.unsubscribed.push(sub);
    }
    state.unsubscribed.sort(byName);
  },
  "subscription update"(state, { stream_id, property, value }) {
    const sub = state.subscriptions.find((each: State) => each.stream_id === stream_id);
    if (sub) sub[property] = value;
  },
  "subscription peer_add"(state, { stream_ids, user_ids }) {
    for (const list of channelLists(state)) {
      for (const channel of list) {
        if (!stream_ids.includes(channel.stream_id)) continue;
        if (Array.isArray(channel.subscribers)) channel.subscribers = [...new Set([...channel.subscribers, ...user_ids])].sort((a, b) => a - b);
        if (typeof channel.subscriber_count === "number") channel.subscriber_count += user_ids.length;
      }
    }
  },
  "subscription peer_remove"(state, { stream_ids, user_ids }) {
    for (const list of channelLists(state)) {
      for (const channel of list) {
        if (!stream_ids.includes(channel.stream_id)) continue;
        if (Array.isArray(channel.subscribers)) channel.subscribers = channel.subscribers.filter((id: number) => !user_ids.includes(id));
        if (typeof channel.subscriber_count === "number") channel.subscriber_count -= user_ids.length;
      }
    }
  },
  default_streams(state, { default_streams }) {
    state.realm_default_streams = default_streams;
  },

  message(state, { message, flags }) {
    state.max_message_id = Math.max(state.max_message_id, message.id);
    if (message.type === "private") {
      const others = message.display_recipient.map((user: State) => user.id).filter((id: number) => id !== state.user_id).sort((a: number, b: number) => a - b);
      const key = others.join(",");
      state.recent_private_conversations = [
        { max_message_id: message.id, user_ids: others },
        ...state.recent_private_conversations.filter((conversation: State) => conversation.user_ids.join(",") !== key),
      ];
    }
    applyUnreadMessage(state, message, flags);
  },
  // The legacy list, whole; in a snapshot only when user_topic was not asked for.
  muted_topics(state, { muted_topics }) {
    if ("muted_topics" in state) state.muted_topics = muted_topics;
  },
  user_topic(state, { id: _id, type: _type, ...topic }) {
    const rest = state.user_topics.filter((each: State) => !(each.stream_id === topic.stream_id && each.topic_name.toLowerCase() === topic.topic_name.toLowerCase()));
    state.user_topics = topic.visibility_policy === 0 ? rest : [...rest, topic];
  },
  update_message(state, event) {
    applyUnreadMove(state, event);
  },
  delete_message(state, event) {
    const ids: number[] = event.message_ids ?? [event.message_id];
    forgetUnread(state, ids);
    state.starred_messages = state.starred_messages.filter((id: number) => !ids.includes(id));
  },
  "update_message_flags add"(state, event) {
    if (event.flag === "starred") state.starred_messages = [...new Set([...state.starred_messages, ...event.messages])].sort((a, b) => a - b);
    applyUnreadFlags(state, event);
  },
  "update_message_flags remove"(state, event) {
    if (event.flag === "starred") state.starred_messages = state.starred_messages.filter((id: number) => !event.messages.includes(id));
    applyUnreadFlags(state, event);
  },
};

export const kindOf = (event: { type: string; op?: string }) => (event.op === undefined ? event.type : `${event.type} ${event.op}`);

/** The snapshot with the events applied, in order; records each event's kind in `seen`. */
export function applyEvents(snapshot: State, events: Event[], seen: Set<string>, includeSubscribers: boolean): State {
  const state = structuredClone(snapshot);
  state.__includeSubscribers = includeSubscribers;
  unreadIndex(state);
  for (const event of events) {
    const kind = kindOf(event);
    const applier = APPLIERS[kind];
    if (!applier) throw new Error(`No applier for the event kind "${kind}": ${JSON.stringify(event)}`);
    applier(state, event);
    seen.add(kind);
  }
  rebuildUnread(state);
  delete state.__includeSubscribers;
  return state;
}
