import { accessChannel, channelViewer, hasContentAccess, hasMetadataAccess } from "../access/channels";
import { accessUser } from "../access/users";
import { activeChannelIdsOfUser, activeSubscriberIds, type Channel, defaultChannelIds, findChannelByName, findSubscription, listChannels } from "../db/channels";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { byName, subscriptionLists } from "../events/state/channels";
import { badRequest } from "../http/errors";
import { isAdministrator, isGuest } from "../model/roles";
import { type ApiChannel, type ApiSubscription, ChannelShaper } from "../shapes/channels";

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
export function listChannelsFor(user: User, flags: ChannelListFlags): Promise<ApiChannel[]> {
  return read(async (db) => {
    if (flags.includeAllActive && !isAdministrator(user.role)) throw badRequest("User not authorized for this query");
    const channels = await listChannels(db, { includeArchived: !flags.excludeArchived });
    const viewer = await channelViewer(db, user);
    const ownerChannels = flags.includeOwnerSubscribed && user.isBot && user.botOwnerId !== null ? await activeChannelIdsOfUser(db, user.botOwnerId) : new Set<number>();
    const wanted = (channel: Channel) => {
      if (flags.includeAll || flags.includeAllActive) return hasMetadataAccess(viewer, channel);
      if (ownerChannels.has(channel.id)) return true;
      if (flags.includeCanAccessContent) return hasContentAccess(viewer, channel);
      if (flags.includeSubscribed && viewer.subscribedIds.has(channel.id)) return true;
      if (flags.includePublic && !isGuest(user.role) && !channel.inviteOnly) return true;
      return flags.includeWebPublic && channel.isWebPublic && !channel.isArchived;
    };
    const chosen = channels.filter(wanted);
    const shaper = await ChannelShaper.load(db, chosen);
    const defaults = flags.includeDefault ? new Set(await defaultChannelIds(db)) : null;
    return byName(chosen.map((channel) => (defaults ? { ...shaper.channel(channel), is_default: defaults.has(channel.id) } : shaper.channel(channel))));
  });
}

/** GET /streams/{stream_id}: one channel whose metadata the viewer may see. */
export function getChannel(viewer: User, channelId: number): Promise<ApiChannel> {
  return read(async (db) => {
    const { channel } = await accessChannel(db, viewer, channelId, "metadata");
    return (await ChannelShaper.load(db, [channel])).channel(channel);
  });
}

/** GET /streams/{stream_id}/members: the active subscribers of a channel the viewer may see. */
export function listChannelSubscribers(viewer: User, channelId: number): Promise<number[]> {
  return read(async (db) => {
    const { channel } = await accessChannel(db, viewer, channelId, "metadata");
    return (await activeSubscriberIds(db, [channel.id])).get(channel.id) ?? [];
  });
}

/** GET /get_stream_id: found by name, then refused like any channel whose content the viewer may not read. */
export function getChannelIdByName(viewer: User, name: string): Promise<number> {
  return read(async (db) => {
    const channel = await findChannelByName(db, name.trim());
    if (!channel) throw badRequest(`Invalid channel name '${name}'`);
    return (await accessChannel(db, viewer, channel.id, "content")).channel.id;
  });
}

/** GET /users/{user_id}/subscriptions/{stream_id}: whether that user, deactivated or not, is subscribed. */
export function isUserSubscribed(viewer: User, userId: number, channelId: number): Promise<boolean> {
  return read(async (db) => {
    const target = await accessUser(db, userId, { allowDeactivated: true });
    const { channel } = await accessChannel(db, viewer, channelId, "metadata");
    return (await findSubscription(db, target.id, channel.id))?.active === true;
  });
}

/** GET /users/me/subscriptions (spec 4.18): active channels only, notification settings as stored. */
export function listSubscriptions(viewer: User, options: { includeSubscribers: boolean }): Promise<ApiSubscription[]> {
  return read(async (db) => (await subscriptionLists(db, viewer, { ...options, includeArchived: false, notificationSettingsNull: true })).subscriptions);
}
