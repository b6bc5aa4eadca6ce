import { type ChannelViewer, channelViewer, hasContentAccess, hasMetadataAccess } from "../../access/channels";
import { activeChannelIdsOfUser, activeSubscriberIds, type Channel, defaultChannelIds, listChannels, listSubscriptionsOfUser } from "../../db/channels";
import type { Reader } from "../../db/types";
import type { User } from "../../db/users";
import { badRequest } from "../../http/errors";
import { isAdministrator, isGuest } from "../../model/roles";
import { type ApiChannel, type ApiSubscription, ChannelShaper, withInheritedNotifications } from "../../shapes/channels";
import type { UserStateContext } from "./index";

/**
 * Channel reads: the register sections (subscription, stream, default_streams) and the REST
 * lists built from the same pieces, so a snapshot and the endpoints always agree.
 */

export interface SubscriptionListOptions {
  includeSubscribers: boolean;
  /** Clients with the archived_channels capability also get archived channels. */
  includeArchived: boolean;
  /** false: null notification settings become the user's own (older clients). */
  notificationSettingsNull: boolean;
}

const byName = <T extends { name: string }>(list: T[]) => list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** The user's subscriptions, the channels they left and still see, and those they never joined. */
export function subscriptionLists(db: Reader, user: User, options: SubscriptionListOptions) {
  const channels = listChannels(db, { includeArchived: options.includeArchived });
  const viewer = channelViewer(db, user);
  const rows = new Map(listSubscriptionsOfUser(db, user.id).map((row) => [row.channelId, row]));
  const joined = channels.filter((channel) => rows.get(channel.id)?.active);
  // Channels one left or never joined are listed only while one may still see them.
  const visible = channels.filter((channel) => !rows.get(channel.id)?.active && hasMetadataAccess(viewer, channel));
  const shaper = new ChannelShaper(db, [...joined, ...visible]);
  const subscribers = options.includeSubscribers ? activeSubscriberIds(db, [...joined, ...visible].map((c) => c.id)) : null;
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

/** GET /users/me/subscriptions (spec 4.18): active channels only, notification settings as stored. */
export function listSubscriptions(db: Reader, user: User, options: { includeSubscribers: boolean }): ApiSubscription[] {
  return subscriptionLists(db, user, { ...options, includeArchived: false, notificationSettingsNull: true }).subscriptions;
}

/** GET /streams flags (spec 4.9), with their defaults applied by the route. */
export interface ChannelListFlags {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  includeAll: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
  /** Deprecated spelling of includeAll, for administrators only. */
  includeAllActive: boolean;
}

/** GET /streams: the union of every source the flags ask for, sorted by name. */
export function listChannelsFor(db: Reader, user: User, flags: ChannelListFlags): ApiChannel[] {
  if (flags.includeAllActive && !isAdministrator(user.role)) throw badRequest("User not authorized for this query");
  const channels = listChannels(db, { includeArchived: !flags.excludeArchived });
  const viewer = channelViewer(db, user);
  const ownerChannels = flags.includeOwnerSubscribed && user.isBot && user.botOwnerId !== null ? activeChannelIdsOfUser(db, user.botOwnerId) : new Set<number>();
  const wanted = (channel: Channel) => {
    if (flags.includeAll || flags.includeAllActive) return hasMetadataAccess(viewer, channel);
    if (ownerChannels.has(channel.id)) return true;
    if (flags.includeCanAccessContent) return hasContentAccess(viewer, channel);
    if (flags.includeSubscribed && viewer.subscribedIds.has(channel.id)) return true;
    if (flags.includePublic && !isGuest(user.role) && !channel.inviteOnly) return true;
    return flags.includeWebPublic && channel.isWebPublic && !channel.isArchived;
  };
  const chosen = channels.filter(wanted);
  const shaper = new ChannelShaper(db, chosen);
  const defaults = flags.includeDefault ? new Set(defaultChannelIds(db)) : null;
  return byName(chosen.map((channel) => (defaults ? { ...shaper.channel(channel), is_default: defaults.has(channel.id) } : shaper.channel(channel))));
}

/** Every channel the viewer may know about (the register "streams" section). */
function visibleChannels(db: Reader, viewer: ChannelViewer, includeArchived: boolean): ApiChannel[] {
  const channels = listChannels(db, { includeArchived }).filter((channel) => hasMetadataAccess(viewer, channel));
  const shaper = new ChannelShaper(db, channels);
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
export function streamState(db: Reader, { viewer, spec }: UserStateContext) {
  return { streams: visibleChannels(db, channelViewer(db, viewer), spec.capabilities.archived_channels) };
}

/** register section "default_streams". */
export function defaultStreamsState(db: Reader) {
  return { realm_default_streams: defaultChannelIds(db) };
}
