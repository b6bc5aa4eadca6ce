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

export async function channelViewer(db: Reader, user: User): Promise<ChannelViewer> {
  return { user, groupIds: await groupIdsOfUser(db, user.id), subscribedIds: await activeChannelIdsOfUser(db, user.id) };
}

/**
 * A viewer whose groups are looked up only if a check needs them: reading history and sending
 * rarely do (only a private channel one is not subscribed to). The checks are synchronous, so
 * the groups are loaded before one that reads them: loadGroupsFor the channels about to be
 * checked, or loadGroups. Reading them unloaded is a mistake in the code, and throws.
 */
export function lazyViewer(db: Reader, user: User, subscribedIds: Set<number>): ChannelViewer {
  let groupIds: Set<number> | undefined;
  const viewer: ChannelViewer = {
    user,
    subscribedIds,
    get groupIds() {
      if (!groupIds) throw new Error("A channel check read a lazy viewer's groups before they were loaded");
      return groupIds;
    },
  };
  groupsToLoad.set(viewer, async () => {
    groupIds = await groupIdsOfUser(db, user.id);
  });
  return viewer;
}

/** Lazy viewers whose groups are not loaded yet, with what loads them. */
const groupsToLoad = new WeakMap<ChannelViewer, () => Promise<void>>();

/** Loads a lazy viewer's groups; any other viewer has them already. */
export async function loadGroups(viewer: ChannelViewer) {
  const load = groupsToLoad.get(viewer);
  if (!load) return;
  groupsToLoad.delete(viewer);
  await load();
}

/** loadGroups if hasContentAccess or hasMetadataAccess needs the groups for one of these channels. */
export async function loadGroupsFor(viewer: ChannelViewer, channels: Iterable<Channel>) {
  if (!groupsToLoad.has(viewer)) return;
  for (const channel of channels) {
    if (contentAccessNeedsGroups(viewer, channel)) return loadGroups(viewer);
  }
}

/**
 * Exactly when hasContentAccess reads the viewer's groups; hasMetadataAccess reads them only
 * then too, since a non-guest lacks content access only to such a channel.
 */
const contentAccessNeedsGroups = (viewer: ChannelViewer, channel: Channel) =>
  !channel.isWebPublic && !viewer.subscribedIds.has(channel.id) && !isGuest(viewer.user.role) && channel.inviteOnly;

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
export async function accessChannel(db: Reader, user: User, channelId: number, need: "content" | "metadata"): Promise<AccessedChannel> {
  const channel = await findChannelById(db, channelId);
  if (!channel) throw badRequest(INVALID_CHANNEL);
  const viewer = await channelViewer(db, user);
  const allowed = need === "content" ? hasContentAccess(viewer, channel) : hasMetadataAccess(viewer, channel);
  if (!allowed) throw badRequest(INVALID_CHANNEL);
  return { channel, viewer, subscription: await findSubscription(db, user.id, channel.id) };
}

/**
 * Fetches a channel the user may administer (change settings, archive). Someone who can see
 * the channel but not administer it is told so; anyone else learns nothing.
 */
export async function accessChannelToAdminister(db: Reader, user: User, channelId: number): Promise<AccessedChannel> {
  const channel = await findChannelById(db, channelId);
  if (!channel) throw badRequest(INVALID_CHANNEL);
  const viewer = await channelViewer(db, user);
  if (!canAdministerChannel(viewer, channel)) {
    if (hasContentAccess(viewer, channel)) throw badRequest("You do not have permission to administer this channel.");
    throw badRequest(INVALID_CHANNEL);
  }
  return { channel, viewer, subscription: await findSubscription(db, user.id, channel.id) };
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

  private async activeUsers() {
    this.people ??= await activeUserRoles(this.db);
    return this.people;
  }

  async allActiveIds(): Promise<number[]> {
    return (this.allIds ??= (await this.activeUsers()).map((user) => user.id));
  }

  private async nonGuestIds(): Promise<number[]> {
    return (this.nonGuests ??= (await this.activeUsers())
      .filter((user) => !isGuest(user.role))
      .map((user) => user.id));
  }

  private async administratorIds(): Promise<number[]> {
    return (this.administrators ??= (await this.activeUsers())
      .filter((user) => isAdministrator(user.role))
      .map((user) => user.id));
  }

  private async membersOf(groupId: number): Promise<number[]> {
    let members = this.groupMembers.get(groupId);
    if (!members) this.groupMembers.set(groupId, (members = await recursiveMemberIds(this.db, groupId)));
    return members;
  }

  /** Non-guests who see a private channel through can_administer/add_subscribers/subscribe. */
  async viaGroups(channel: Channel): Promise<Set<number>> {
    const nonGuests = new Set(await this.nonGuestIds());
    const result = new Set<number>();
    for (const groupId of [channel.canAdministerChannelGroup, channel.canAddSubscribersGroup, channel.canSubscribeGroup]) {
      for (const id of await this.membersOf(groupId)) if (nonGuests.has(id)) result.add(id);
    }
    return result;
  }

  /** Everyone with metadata access, given the channel's current (active) subscribers. */
  async withMetadataAccess(channel: Channel, subscriberIds: Iterable<number>): Promise<Set<number>> {
    if (channel.isWebPublic) return new Set(await this.allActiveIds());
    const active = (this.activeSet ??= new Set(await this.allActiveIds()));
    const result = new Set([...subscriberIds].filter((id) => active.has(id)));
    if (!channel.inviteOnly) {
      for (const id of await this.nonGuestIds()) result.add(id);
      return result;
    }
    for (const id of await this.administratorIds()) result.add(id);
    for (const id of await this.viaGroups(channel)) result.add(id);
    return result;
  }
}

/** Everyone who may currently see the channel. */
export async function channelAudience(db: Reader, channel: Channel, audience = new ChannelAudience(db)): Promise<Set<number>> {
  return audience.withMetadataAccess(channel, (await activeSubscriberIds(db, [channel.id])).get(channel.id) ?? []);
}
