import { ChannelAudience, type ChannelViewer, accessChannel, accessChannelToAdminister, hasMetadataAccess } from "../access/channels";
import { holdsPermission, storeGroupSettingValue, systemGroupId } from "../access/groupSettings";
import { requireAdministrator } from "../access/users";
import { activeSubscriberIds, addDefaultChannel, type Channel, defaultChannelIds, insertChannel, removeDefaultChannel, updateChannel } from "../db/channels";
import { getRealm, realms, type Realm } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { CHANNEL_GROUP_SETTINGS, CHANNEL_GROUP_SETTING_NAMES, type ChannelGroupSettingName, renderDescription } from "../model/channelSettings";
import type { GroupSettingValue } from "../model/groupSetting";
import type { RealmGroupSettingName } from "../model/realmSettings";
import { isAdministrator, isOwner } from "../model/roles";
import { ChannelShaper } from "../shapes/channels";
import { now } from "./users";

/** Settings a new channel takes from the subscribe call that creates it (spec 4.3). */
export interface NewChannelSettings {
  inviteOnly: boolean;
  isWebPublic: boolean;
  /** undefined: public channels share history, private ones do not. */
  historyPublicToSubscribers: boolean | undefined;
  messageRetentionDays: number | null;
  isDefault: boolean;
  /** Values already checked; settings left out take the channel defaults. */
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>>;
}

/** Realm-wide channel permissions are never held by guests (they do not allow role:everyone). */
export const holdsRealmPermission = (viewer: ChannelViewer, realm: Realm, setting: RealmGroupSettingName) =>
  holdsPermission(viewer.user, realm.settings[setting], { allowInternet: false, allowNobody: true, allowEveryone: false }, viewer.groupIds);

/** Web-public channels need the server setting (always on here) and spectator access. */
export function requireWebPublicAllowed(viewer: ChannelViewer, realm: Realm) {
  if (!realm.settings.enable_spectator_access) throw badRequest("Web-public channels are not enabled.");
  if (!holdsRealmPermission(viewer, realm, "can_create_web_public_channel_group")) throw badRequest("Insufficient permission");
}

/** May this user create channels with these settings? Throws BAD_REQUEST saying why not. */
export function checkChannelCreation(viewer: ChannelViewer, realm: Realm, settings: NewChannelSettings) {
  const privacySetting = settings.inviteOnly ? "can_create_private_channel_group" : "can_create_public_channel_group";
  if (!holdsRealmPermission(viewer, realm, privacySetting)) throw badRequest("Insufficient permission");
  if (settings.isDefault && !isAdministrator(viewer.user.role)) throw badRequest("Insufficient permission");
  if (settings.inviteOnly && settings.isDefault) throw badRequest("A default channel cannot be private.");
  if (settings.isWebPublic) {
    if (settings.inviteOnly) throw badRequest("A web-public channel cannot be private.");
    requireWebPublicAllowed(viewer, realm);
  }
  if (settings.messageRetentionDays !== null && !isOwner(viewer.user.role)) throw badRequest("Must be an organization owner");
}

/** Creates a channel and tells everyone who may see it. Checks are the caller's (checkChannelCreation). */
export function createChannel(tx: Tx, creator: User, name: string, description: string, settings: NewChannelSettings): Channel {
  const created = now();
  const groupIds = {} as Record<ChannelGroupSettingName, number>;
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    const chosen = settings.groupSettings[setting];
    const fallback = CHANNEL_GROUP_SETTINGS[setting].default;
    groupIds[setting] =
      chosen !== undefined
        ? storeGroupSettingValue(tx, chosen, null, created)
        : fallback === "channel_creator"
          ? storeGroupSettingValue(tx, { direct_members: [creator.id], direct_subgroups: [] }, null, created)
          : systemGroupId(tx, fallback);
  }
  const channel = insertChannel(tx, {
    name,
    nameKey: name.toLowerCase(),
    description,
    renderedDescription: renderDescription(description),
    dateCreated: created,
    creatorId: creator.id,
    inviteOnly: settings.inviteOnly,
    isWebPublic: settings.isWebPublic,
    historyPublicToSubscribers: settings.inviteOnly ? (settings.historyPublicToSubscribers ?? false) : true,
    messageRetentionDays: settings.messageRetentionDays,
    canAddSubscribersGroup: groupIds.can_add_subscribers_group,
    canRemoveSubscribersGroup: groupIds.can_remove_subscribers_group,
    canAdministerChannelGroup: groupIds.can_administer_channel_group,
    canSendMessageGroup: groupIds.can_send_message_group,
    canSubscribeGroup: groupIds.can_subscribe_group,
  });
  const audience = new ChannelAudience(tx).withMetadataAccess(channel, []);
  tx.emit({ type: "stream", op: "create", streams: [new ChannelShaper(tx, [channel]).channel(channel)] }, audience);
  if (settings.isDefault) setDefaultChannel(tx, channel, true);
  return channel;
}

/**
 * The notification bot's announcement of newly created channels in the organization's
 * new-channel announcements channel, and the creation notice in each new channel. Both are
 * messages, so they are posted by the message store once it exists; until then nothing is
 * posted and nothing is recorded.
 */
export function announceNewChannels(_tx: Tx, _creator: User, _created: Channel[], _announce: boolean) {}

/** Makes a channel a default channel for new users, or stops it being one; tells everyone. */
export function setDefaultChannel(tx: Tx, channel: Channel, isDefault: boolean) {
  const changed = isDefault ? addDefaultChannel(tx, channel.id) : removeDefaultChannel(tx, channel.id);
  if (changed) tx.emit({ type: "default_streams", default_streams: defaultChannelIds(tx) }, new ChannelAudience(tx).allActiveIds());
}

/** POST /default_streams. */
export function addDefaultChannelById(actor: User, channelId: number) {
  requireAdministrator(actor, "change default channels");
  write((tx) => {
    const { channel } = accessChannel(tx, actor, channelId, "content");
    if (channel.inviteOnly) throw badRequest("Private channels cannot be made default.");
    if (channel.isArchived) throw badRequest("Archived channels cannot be made default.");
    setDefaultChannel(tx, channel, true);
  });
}

/** DELETE /default_streams. */
export function removeDefaultChannelById(actor: User, channelId: number) {
  requireAdministrator(actor, "change default channels");
  write((tx) => setDefaultChannel(tx, accessChannel(tx, actor, channelId, "metadata").channel, false));
}

/**
 * DELETE /streams/{id}: archives a channel. It keeps its subscribers and messages but accepts
 * no new messages, stops being a default channel and stops being the announcements channel.
 */
export function archiveChannel(actor: User, channelId: number) {
  write((tx) => archive(tx, accessChannelToAdminister(tx, actor, channelId).channel));
}

export function archive(tx: Tx, channel: Channel) {
  if (channel.isArchived) throw badRequest("Channel is already archived.");
  const audience = channelAudience(tx, channel);
  const archived = updateChannel(tx, channel.id, { isArchived: true });
  setDefaultChannel(tx, archived, false);
  const realm = getRealm(tx);
  if (realm.settings.new_stream_announcements_stream_id === channel.id) {
    tx.update(realms).set({ settings: { ...realm.settings, new_stream_announcements_stream_id: null } }).run();
  }
  tx.emit({ type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "is_archived", value: true }, audience);
  tx.emit({ type: "stream", op: "delete", streams: [{ stream_id: channel.id }], stream_ids: [channel.id], for_archiving: true }, audience);
}

export function unarchive(tx: Tx, channel: Channel) {
  if (!channel.isArchived) throw badRequest("Channel is not archived.");
  if (channel.inviteOnly && (activeSubscriberIds(tx, [channel.id]).get(channel.id) ?? []).length === 0) {
    throw badRequest("A private channel without subscribers cannot be unarchived.");
  }
  const restored = updateChannel(tx, channel.id, { isArchived: false });
  const audience = channelAudience(tx, restored);
  tx.emit({ type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "is_archived", value: false }, audience);
  tx.emit({ type: "stream", op: "create", streams: [new ChannelShaper(tx, [restored]).channel(restored)], for_unarchiving: true }, audience);
}

/** Everyone who may currently see the channel. */
export function channelAudience(tx: Tx, channel: Channel, audience = new ChannelAudience(tx)): Set<number> {
  return audience.withMetadataAccess(channel, activeSubscriberIds(tx, [channel.id]).get(channel.id) ?? []);
}

/** Whether a user may still see a channel without being subscribed (after leaving it). */
export const keepsMetadataAccess = (viewer: ChannelViewer, channel: Channel) =>
  hasMetadataAccess({ ...viewer, subscribedIds: new Set([...viewer.subscribedIds].filter((id) => id !== channel.id)) }, channel);
