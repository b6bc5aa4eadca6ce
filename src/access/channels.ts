import { activeChannelIdsOfUser, activeSubscriberIds, type Channel, findChannelById, findSubscription, type Subscription } from "../db/channels";
import { recursiveMemberIds } from "../db/userGroups";
import type { Reader } from "../db/types";
import { activeUserRoles, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { isAdministrator, isGuest } from "../model/roles";
import { groupIdsOfUser } from "./groupSettings";

/**
 * Who may do what with a channel (spec 2.1 and the reference's channel permissions).
 *
 * Content access (reading messages, subscribing oneself): web-public channels for everyone,
 * subscribers, public channels for everyone but guests, and for private channels members of
 * can_add_subscribers_group or can_subscribe_group. Metadata access (knowing the channel
 * exists, its settings and subscribers): content access, or organization administrators, or
 * members of can_administer_channel_group. Guests never gain access through a group, since
 * those settings do not allow role:everyone.
 */

/** What permission checks need to know about the acting user, fetched once per request. */
export interface ChannelViewer {
  user: User;
  /** Every group the user is in, through subgroups too. */
  groupIds: Set<number>;
  /** Channels the user is actively subscribed to. */
  subscribedIds: Set<number>;
}

export function channelViewer(db: Reader, user: User): ChannelViewer {
  return { user, groupIds: groupIdsOfUser(db, user.id), subscribedIds: activeChannelIdsOfUser(db, user.id) };
}

export function hasContentAccess(viewer: ChannelViewer, channel: Channel): boolean {
  if (channel.isWebPublic || viewer.subscribedIds.has(channel.id)) return true;
  if (isGuest(viewer.user.role)) return false;
  if (!channel.inviteOnly) return true;
  return viewer.groupIds.has(channel.canAddSubscribersGroup) || viewer.groupIds.has(channel.canSubscribeGroup);
}

export function hasMetadataAccess(viewer: ChannelViewer, channel: Channel): boolean {
  if (hasContentAccess(viewer, channel)) return true;
  if (isGuest(viewer.user.role)) return false;
  return isAdministrator(viewer.user.role) || viewer.groupIds.has(channel.canAdministerChannelGroup);
}

/** Organization administrators administer every channel as if they were in its group. */
export function canAdministerChannel(viewer: ChannelViewer, channel: Channel): boolean {
  if (isAdministrator(viewer.user.role)) return true;
  return !isGuest(viewer.user.role) && viewer.groupIds.has(channel.canAdministerChannelGroup);
}

/** Whether the viewer may add other people to a channel they have content access to. */
export function canAddSubscribers(viewer: ChannelViewer, channel: Channel, realmCanAddSubscribersGroup: number): boolean {
  if (isGuest(viewer.user.role)) return false;
  if (canAdministerChannel(viewer, channel)) return true;
  return viewer.groupIds.has(realmCanAddSubscribersGroup) || viewer.groupIds.has(channel.canAddSubscribersGroup);
}

/** Whether the viewer may unsubscribe people other than themselves and their bots. */
export function canRemoveSubscribers(viewer: ChannelViewer, channel: Channel): boolean {
  if (canAdministerChannel(viewer, channel)) return true;
  if (isGuest(viewer.user.role) || !hasMetadataAccess(viewer, channel)) return false;
  return viewer.groupIds.has(channel.canRemoveSubscribersGroup);
}

const INVALID_CHANNEL = "Invalid channel ID";

export interface AccessedChannel {
  channel: Channel;
  viewer: ChannelViewer;
  subscription: Subscription | undefined;
}

/**
 * Fetches a channel the user may reach, by content or by metadata access. Channels that do
 * not exist and channels the user may not know about get the same answer.
 */
export function accessChannel(db: Reader, user: User, channelId: number, need: "content" | "metadata"): AccessedChannel {
  const channel = findChannelById(db, channelId);
  if (!channel) throw badRequest(INVALID_CHANNEL);
  const viewer = channelViewer(db, user);
  const allowed = need === "content" ? hasContentAccess(viewer, channel) : hasMetadataAccess(viewer, channel);
  if (!allowed) throw badRequest(INVALID_CHANNEL);
  return { channel, viewer, subscription: findSubscription(db, user.id, channel.id) };
}

/**
 * Fetches a channel the user may administer (change settings, archive). Someone who can see
 * the channel but not administer it is told so; anyone else learns nothing.
 */
export function accessChannelToAdminister(db: Reader, user: User, channelId: number): AccessedChannel {
  const channel = findChannelById(db, channelId);
  if (!channel) throw badRequest(INVALID_CHANNEL);
  const viewer = channelViewer(db, user);
  if (!canAdministerChannel(viewer, channel)) {
    if (hasContentAccess(viewer, channel)) throw badRequest("You do not have permission to administer this channel.");
    throw badRequest(INVALID_CHANNEL);
  }
  return { channel, viewer, subscription: findSubscription(db, user.id, channel.id) };
}

/**
 * The users who must hear about a channel: those with metadata access to it, computed for
 * everyone at once. It also decides who learns of subscriber changes, as exactly the same
 * people may see a channel's subscribers.
 */
export class ChannelAudience {
  private people: Array<{ id: number; role: number }> | null = null;
  private groupMembers = new Map<number, number[]>();
  // Asked once per channel, for many channels at a time: each list is made once.
  private allIds: number[] | null = null;
  private activeSet: Set<number> | null = null;
  private nonGuests: number[] | null = null;
  private administrators: number[] | null = null;

  constructor(private readonly db: Reader) {}

  private activeUsers() {
    this.people ??= activeUserRoles(this.db);
    return this.people;
  }

  allActiveIds(): number[] {
    return (this.allIds ??= this.activeUsers().map((user) => user.id));
  }

  private nonGuestIds(): number[] {
    return (this.nonGuests ??= this.activeUsers()
      .filter((user) => !isGuest(user.role))
      .map((user) => user.id));
  }

  private administratorIds(): number[] {
    return (this.administrators ??= this.activeUsers()
      .filter((user) => isAdministrator(user.role))
      .map((user) => user.id));
  }

  private membersOf(groupId: number): number[] {
    let members = this.groupMembers.get(groupId);
    if (!members) this.groupMembers.set(groupId, (members = recursiveMemberIds(this.db, groupId)));
    return members;
  }

  /** Non-guests who see a private channel through can_administer/add_subscribers/subscribe. */
  viaGroups(channel: Channel): Set<number> {
    const nonGuests = new Set(this.nonGuestIds());
    const result = new Set<number>();
    for (const groupId of [channel.canAdministerChannelGroup, channel.canAddSubscribersGroup, channel.canSubscribeGroup]) {
      for (const id of this.membersOf(groupId)) if (nonGuests.has(id)) result.add(id);
    }
    return result;
  }

  /** Everyone with metadata access, given the channel's current (active) subscribers. */
  withMetadataAccess(channel: Channel, subscriberIds: Iterable<number>): Set<number> {
    if (channel.isWebPublic) return new Set(this.allActiveIds());
    const active = (this.activeSet ??= new Set(this.allActiveIds()));
    const result = new Set([...subscriberIds].filter((id) => active.has(id)));
    if (!channel.inviteOnly) {
      for (const id of this.nonGuestIds()) result.add(id);
      return result;
    }
    for (const id of this.administratorIds()) result.add(id);
    for (const id of this.viaGroups(channel)) result.add(id);
    return result;
  }
}

/** Everyone who may currently see the channel. */
export function channelAudience(db: Reader, channel: Channel, audience = new ChannelAudience(db)): Set<number> {
  return audience.withMetadataAccess(channel, activeSubscriberIds(db, [channel.id]).get(channel.id) ?? []);
}
