import { type ChannelViewer, channelViewer, hasMetadataAccess } from "../../access/channels";
import { activeSubscriberIds, type Channel, defaultChannelIds, listChannels, listSubscriptionsOfUser } from "../../db/channels";
import type { Reader } from "../../db/types";
import type { User } from "../../db/users";
import { type ApiChannel, type ApiSubscription, ChannelShaper, withInheritedNotifications } from "../../shapes/channels";
import type { UserStateContext } from "./context";

/**
 * Channel reads: the register sections (subscription, stream, default_streams), built from
 * pieces the REST lists in reads/channels.ts share, so a snapshot and the endpoints always agree.
 */

export interface SubscriptionListOptions {
  includeSubscribers: boolean;
  /** Clients with the archived_channels capability also get archived channels. */
  includeArchived: boolean;
  /** false: null notification settings become the user's own (older clients). */
  notificationSettingsNull: boolean;
}

export const byName = <T extends { name: string }>(list: T[]) => list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The user's subscriptions, the channels they left and still see, and those they never joined. */
export async function subscriptionLists(db: Reader, user: User, options: SubscriptionListOptions) {
  const channels = await listChannels(db, { includeArchived: options.includeArchived });
  const viewer = await channelViewer(db, user);
  const rows = new Map((await listSubscriptionsOfUser(db, user.id)).map((row) => [row.channelId, row]));
  const joined = channels.filter((channel) => rows.get(channel.id)?.active);
  // Channels one left or never joined are listed only while one may still see them.
  const visible = channels.filter((channel) => !rows.get(channel.id)?.active && hasMetadataAccess(viewer, channel));
  const shaper = await ChannelShaper.load(db, [...joined, ...visible]);
  const subscribers = options.includeSubscribers ? await activeSubscriberIds(db, [...joined, ...visible].map((c) => c.id)) : null;
  const withSubscribers = <T extends ApiChannel | ApiSubscription>(shape: T): T => (subscribers ? { ...shape, subscribers: subscribers.get(shape.stream_id) ?? [] } : shape);
  const personal = (channel: Channel) => {
    const shape = shaper.subscription(channel, rows.get(channel.id)!);
    return withSubscribers(options.notificationSettingsNull ? shape : withInheritedNotifications(shape, user.settings));
  };
  return {
    subscriptions: byName(joined.map(personal)),
    unsubscribed: byName(visible.filter((channel) => rows.has(channel.id)).map(personal)),
    never_subscribed: byName(visible.filter((channel) => !rows.has(channel.id)).map((channel) => withSubscribers(shaper.channel(channel)))),
  };
}

/** Every channel the viewer may know about (the register "streams" section). */
async function visibleChannels(db: Reader, viewer: ChannelViewer, includeArchived: boolean): Promise<ApiChannel[]> {
  const channels = (await listChannels(db, { includeArchived })).filter((channel) => hasMetadataAccess(viewer, channel));
  const shaper = await ChannelShaper.load(db, channels);
  return byName(channels.map((channel) => shaper.channel(channel)));
}

/** register section "subscription". */
export function subscriptionState(db: Reader, { viewer, spec, includeSubscribers }: UserStateContext) {
  return subscriptionLists(db, viewer, {
    includeSubscribers,
    includeArchived: spec.capabilities.archived_channels,
    notificationSettingsNull: spec.capabilities.notification_settings_null,
  });
}

/** register section "stream". */
export async function streamState(db: Reader, { viewer, spec }: UserStateContext) {
  return { streams: await visibleChannels(db, await channelViewer(db, viewer), spec.capabilities.archived_channels) };
}

/** register section "default_streams". */
export async function defaultStreamsState(db: Reader) {
  return { realm_default_streams: await defaultChannelIds(db) };
}
