import { ChannelAudience, channelViewer, hasMetadataAccess } from "../access/channels";
import {
  activeSubscriberIds,
  type Channel,
  insertSubscriptions,
  type NewSubscription,
  setSubscriptionsActive,
  type Subscription,
  subscriptionsOf,
  usedColorsByUser,
} from "../db/channels";
import { recordSubscribed } from "../db/messageState";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { pickColors } from "../model/channelSettings";
import { isAdministrator, isGuest } from "../model/roles";
import { type ApiSubscription, ChannelShaper, subscriptionSettingsToApi } from "../shapes/channels";
import { markLeftChannelsRead } from "./messageFlags";

/**
 * The two verbs every way of joining or leaving channels goes through (subscribe calls,
 * invitations, default channels for new users), with the events each sends.
 */

export interface SubscriptionChanges {
  /** Pairs that changed. */
  changed: Array<{ user: User; channel: Channel }>;
  /** Pairs that were already in the requested state. */
  unchanged: Array<{ user: User; channel: Channel }>;
}

/**
 * Subscribes every user to every channel. A user who left a channel before gets their old
 * subscription (color, settings) back; otherwise a new one takes a color they do not use
 * yet, or the color the caller chose for that channel.
 */
export async function addSubscriptions(tx: Tx, channels: Channel[], users: User[], chosenColors: Map<number, string> = new Map()): Promise<SubscriptionChanges> {
  const existing = new Map((await subscriptionsOf(tx, users.map((u) => u.id), channels.map((c) => c.id))).map((row) => [`${row.userId}:${row.channelId}`, row]));
  const usedColors = await usedColorsByUser(tx, users.map((u) => u.id));
  const result: SubscriptionChanges = { changed: [], unchanged: [] };
  const inserts: NewSubscription[] = [];
  const reactivations: Array<{ userId: number; channelId: number }> = [];
  // What each changed subscription looks like now, for the events: no need to read it back.
  const rowsNow = new Map<string, Subscription>();
  for (const user of users) {
    const fresh = channels.filter((channel) => !existing.has(`${user.id}:${channel.id}`));
    const colors = pickColors(usedColors.get(user.id)!, fresh.filter((channel) => !chosenColors.has(channel.id)).map((channel) => channel.id));
    for (const channel of channels) {
      const row = existing.get(`${user.id}:${channel.id}`);
      if (row?.active) {
        result.unchanged.push({ user, channel });
        continue;
      }
      const key = `${user.id}:${channel.id}`;
      if (row) {
        reactivations.push({ userId: user.id, channelId: channel.id });
        rowsNow.set(key, { ...row, active: true });
      } else {
        const color = chosenColors.get(channel.id) ?? colors.get(channel.id)!;
        inserts.push({ userId: user.id, channelId: channel.id, color });
        rowsNow.set(key, { ...NEW_SUBSCRIPTION, userId: user.id, channelId: channel.id, color });
      }
      result.changed.push({ user, channel });
    }
  }
  await insertSubscriptions(tx, inserts);
  await setSubscriptionsActive(tx, reactivations, true);
  await recordSubscribed(tx, result.changed.map(({ user, channel }) => ({ userId: user.id, channelId: channel.id })));
  if (result.changed.length > 0) await announceAdded(tx, result.changed, rowsNow);
  return result;
}

/** A subscription row as the table's defaults make it, before its keys and color are set. */
const NEW_SUBSCRIPTION: Omit<Subscription, "userId" | "channelId" | "color"> = {
  active: true,
  isMuted: false,
  pinToTop: false,
  desktopNotifications: null,
  audibleNotifications: null,
  pushNotifications: null,
  emailNotifications: null,
  wildcardMentionsNotify: null,
};

async function announceAdded(tx: Tx, added: SubscriptionChanges["changed"], rows: Map<string, Subscription>) {
  const byChannel = groupByChannel(added);
  const channels = [...byChannel.values()].map((entry) => entry.channel);
  const subscribers = await activeSubscriberIds(tx, channels.map((c) => c.id));
  const audience = new ChannelAudience(tx);
  const shaper = await ChannelShaper.load(tx, channels);
  const shapes = new Map(channels.map((channel) => [channel.id, shaper.channel(channel)]));

  // People who could not see a channel before need it described before they are told they joined it.
  for (const { channel, users: joined } of byChannel.values()) {
    const alreadySeeing = channel.inviteOnly ? await audience.viaGroups(channel) : null;
    const newcomers = joined.filter((user) =>
      channel.inviteOnly ? !isAdministrator(user.role) && !alreadySeeing!.has(user.id) : !channel.isWebPublic && isGuest(user.role),
    );
    if (newcomers.length > 0) tx.emit({ type: "stream", op: "create", streams: [shapes.get(channel.id)!] }, newcomers.map((u) => u.id));
  }

  const byUser = new Map<number, ApiSubscription[]>();
  for (const { user, channel } of added) {
    const row = rows.get(`${user.id}:${channel.id}`)!;
    const subscription: ApiSubscription = { ...shapes.get(channel.id)!, ...subscriptionSettingsToApi(row), subscribers: subscribers.get(channel.id) ?? [] };
    (byUser.get(user.id) ?? byUser.set(user.id, []).get(user.id)!).push(subscription);
  }
  for (const [userId, subscriptions] of byUser) tx.emit({ type: "subscription", op: "add", subscriptions }, [userId]);

  await emitPeerEvents(tx, "peer_add", byChannel, subscribers, audience);
}

/** Unsubscribes every user from every channel they are in; the rest is reported unchanged. */
export async function removeSubscriptions(tx: Tx, channels: Channel[], users: User[]): Promise<SubscriptionChanges> {
  const active = new Set(
    (await subscriptionsOf(tx, users.map((u) => u.id), channels.map((c) => c.id)))
      .filter((row) => row.active)
      .map((row) => `${row.userId}:${row.channelId}`),
  );
  const result: SubscriptionChanges = { changed: [], unchanged: [] };
  for (const user of users) {
    for (const channel of channels) (active.has(`${user.id}:${channel.id}`) ? result.changed : result.unchanged).push({ user, channel });
  }
  if (result.changed.length === 0) return result;
  const left = result.changed.map(({ user, channel }) => ({ userId: user.id, channelId: channel.id }));
  await markLeftChannelsRead(tx, left);
  await setSubscriptionsActive(tx, left, false);

  const byUser = new Map<number, { user: User; channels: Channel[] }>();
  for (const { user, channel } of result.changed) (byUser.get(user.id) ?? byUser.set(user.id, { user, channels: [] }).get(user.id)!).channels.push(channel);
  for (const { user, channels: left } of byUser.values()) {
    tx.emit({ type: "subscription", op: "remove", subscriptions: left.map((c) => ({ stream_id: c.id, name: c.name })) }, [user.id]);
    // Leaving a private channel can mean no longer knowing it exists.
    const viewer = await channelViewer(tx, user);
    const lost = left.filter((channel) => !hasMetadataAccess(viewer, channel)).map((c) => c.id);
    if (lost.length > 0) tx.emit({ type: "stream", op: "delete", streams: lost.map((id) => ({ stream_id: id })), stream_ids: lost }, [user.id]);
  }
  const byChannel = groupByChannel(result.changed);
  await emitPeerEvents(tx, "peer_remove", byChannel, await activeSubscriberIds(tx, [...byChannel.keys()]), new ChannelAudience(tx));
  return result;
}

/**
 * Tells everyone who may see a channel's subscribers about the change, except the people
 * who changed. Channels with the same changed users and the same audience share one event,
 * so subscribing many people to many public channels stays a handful of events.
 */
export async function emitPeerEvents(tx: Tx, op: "peer_add" | "peer_remove", byChannel: ChangesByChannel, subscribers: Map<number, number[]>, audience: ChannelAudience) {
  const groups = new Map<string, { channelIds: number[]; userIds: number[]; recipients: number[] }>();
  for (const { channel, users } of byChannel.values()) {
    const userIds = users.map((u) => u.id).sort((a, b) => a - b);
    const changedSet = new Set(userIds);
    const recipients = [...(await audience.withMetadataAccess(channel, subscribers.get(channel.id) ?? []))].filter((id) => !changedSet.has(id)).sort((a, b) => a - b);
    if (recipients.length === 0) continue;
    const key = `${userIds.join(",")}|${recipients.join(",")}`;
    const group = groups.get(key);
    if (group) group.channelIds.push(channel.id);
    else groups.set(key, { channelIds: [channel.id], userIds, recipients });
  }
  for (const { channelIds, userIds, recipients } of groups.values()) {
    tx.emit({ type: "subscription", op, stream_ids: channelIds, user_ids: userIds }, recipients);
  }
}

type ChangesByChannel = Map<number, { channel: Channel; users: User[] }>;

export function groupByChannel(pairs: SubscriptionChanges["changed"]): ChangesByChannel {
  const result: ChangesByChannel = new Map();
  for (const { user, channel } of pairs) (result.get(channel.id) ?? result.set(channel.id, { channel, users: [] }).get(channel.id)!).users.push(user);
  return result;
}
