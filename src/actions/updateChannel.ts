import { holdsRealmPermission, requireWebPublicAllowed } from "../access/channelCreation";
import { ChannelAudience, type ChannelViewer, accessChannelToAdminister, channelAudience, hasContentAccess, hasMetadataAccess } from "../access/channels";
import { checkGroupSettingUpdate } from "../access/groupSettings";
import { releaseGroupSettingValue, storeGroupSettingValue } from "../db/userGroups";
import { activeSubscriberIds, type Channel, defaultChannelIds, findChannelByName, type NewChannel, updateChannel as saveChannel } from "../db/channels";
import { getRealm, type Realm } from "../db/realm";
import { renderChannelDescription } from "../messages/compose";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import type { StreamUpdateEvent } from "../events/kinds/channels";
import { administratorRequired, badRequest, ownerRequired } from "../http/errors";
import {
  CHANNEL_GROUP_SETTINGS,
  CHANNEL_GROUP_SETTING_NAMES,
  type ChannelGroupSettingName,
  MAX_CHANNEL_DESCRIPTION_LENGTH,
  SETTINGS_GRANTING_METADATA_ACCESS,
  SETTINGS_NEEDING_CONTENT_ACCESS,
  StreamPostPolicy,
  channelNameProblem,
  normalizeDescription,
  parseRetentionDays,
} from "../model/channelSettings";
import type { GroupSettingValue } from "../model/groupSetting";
import { isAdministrator, isOwner } from "../model/roles";
import { ChannelShaper } from "../shapes/channels";
import { archive, setDefaultChannel, unarchive } from "./channels";
import { now } from "../model/clock";
import { type ApiGroupSettingValue, groupSettingApiValue } from "../shapes/groupSettings";

export interface ChannelChanges {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: string | number;
  isArchived?: boolean;
  groupSettings: Partial<Record<ChannelGroupSettingName, { new: GroupSettingValue; old?: GroupSettingValue }>>;
}

const GROUP_COLUMN = {
  can_add_subscribers_group: "canAddSubscribersGroup",
  can_remove_subscribers_group: "canRemoveSubscribersGroup",
  can_administer_channel_group: "canAdministerChannelGroup",
  can_send_message_group: "canSendMessageGroup",
  can_subscribe_group: "canSubscribeGroup",
} as const satisfies Record<ChannelGroupSettingName, keyof Channel>;

/**
 * PATCH /streams/{id}: changes a channel's name, description, privacy, retention, default
 * status, archived state or permission settings. Everything is checked before anything
 * changes, and all of it happens in one transaction.
 */
export async function updateChannelSettings(actor: User, channelId: number, changes: ChannelChanges) {
  await write(async (tx) => {
    const { channel, viewer } = await accessChannelToAdminister(tx, actor, channelId);
    const realm = await getRealm(tx);
    const privacy = await checkPrivacy(tx, viewer, realm, channel, changes);
    if (changes.isDefaultStream !== undefined && !isAdministrator(actor.role)) throw administratorRequired();
    const retention = checkRetention(actor, changes.messageRetentionDays);
    const description = changes.description === undefined ? undefined : checkDescription(changes.description);
    const newName = changes.newName === undefined ? undefined : await checkNewName(tx, viewer, channel, changes.newName.trim());
    const settings = await checkGroupSettings(tx, viewer, channel, changes.groupSettings);

    let current = channel;
    if (privacy) current = await changePrivacy(tx, current, privacy);
    if (changes.isDefaultStream !== undefined) await setDefaultChannel(tx, current, changes.isDefaultStream);
    if (retention !== undefined) current = await changeProperty(tx, current, { messageRetentionDays: retention }, "message_retention_days", retention);
    if (changes.isArchived === false && current.isArchived) await unarchive(tx, current);
    if (changes.isArchived === true && !current.isArchived) await archive(tx, current);
    if (description !== undefined) {
      const rendered = await renderChannelDescription(tx, actor, await getRealm(tx), description);
      current = await changeProperty(tx, current, { description, renderedDescription: rendered }, "description", description, { rendered_description: rendered });
    }
    if (newName !== undefined) current = await changeProperty(tx, current, { name: newName, nameKey: newName.toLowerCase() }, "name", newName);
    for (const [setting, value] of settings) current = await changeGroupSetting(tx, current, setting, value);
  });
}

interface Privacy {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
}

/** The channel's privacy after the change, or null when privacy is not being changed. */
async function checkPrivacy(tx: Tx, viewer: ChannelViewer, realm: Realm, channel: Channel, changes: ChannelChanges): Promise<Privacy | null> {
  const { isPrivate, isWebPublic, historyPublicToSubscribers } = changes;
  if (isPrivate === undefined && isWebPublic === undefined && historyPublicToSubscribers === undefined) return null;
  const next: Privacy = {
    inviteOnly: isPrivate ?? channel.inviteOnly,
    isWebPublic: isWebPublic ?? channel.isWebPublic,
    // Becoming private protects history unless asked otherwise; public channels share it.
    historyPublicToSubscribers: historyPublicToSubscribers ?? (isPrivate !== undefined ? !isPrivate : channel.historyPublicToSubscribers),
  };
  if (next.isWebPublic && (next.inviteOnly || !next.historyPublicToSubscribers)) throw badRequest("Invalid parameters");
  if (!next.inviteOnly && !next.historyPublicToSubscribers) throw badRequest("Invalid parameters");
  if (next.inviteOnly && changes.isDefaultStream !== false && (changes.isDefaultStream || (await defaultChannelIds(tx)).includes(channel.id))) {
    throw badRequest("A default channel cannot be private.");
  }
  if (isPrivate !== undefined) {
    if (!hasContentAccess(viewer, channel)) throw badRequest("Channel content access is required.");
    if (!holdsRealmPermission(viewer, realm, isPrivate ? "can_create_private_channel_group" : "can_create_public_channel_group")) throw badRequest("Insufficient permission");
  }
  if (isWebPublic) requireWebPublicAllowed(viewer, realm);
  return next;
}

/** Descriptions are counted in characters, as the limit register reports is. */
function checkDescription(description: string): string {
  if ([...description].length > MAX_CHANNEL_DESCRIPTION_LENGTH) throw badRequest(`Channel description too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters).`);
  return normalizeDescription(description);
}

function checkRetention(actor: User, raw: string | number | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (!isOwner(actor.role)) throw ownerRequired();
  const days = parseRetentionDays(raw);
  if (days === undefined) throw badRequest(`Bad value for 'message_retention_days': ${raw}`);
  return days;
}

async function checkNewName(tx: Tx, viewer: ChannelViewer, channel: Channel, name: string): Promise<string> {
  const problem = channelNameProblem(name);
  if (problem) throw badRequest(problem);
  if (name === channel.name) throw badRequest("Channel already has that name.");
  const other = name.toLowerCase() === channel.nameKey ? undefined : await findChannelByName(tx, name);
  if (other) throw badRequest(hasMetadataAccess(viewer, other) ? `Channel '${name}' already exists` : "Insufficient permission");
  return name;
}

/**
 * The group settings that really change, checked. A stale `old` value is refused so two
 * people editing at once do not silently overwrite each other.
 */
async function checkGroupSettings(tx: Tx, viewer: ChannelViewer, channel: Channel, requested: ChannelChanges["groupSettings"]) {
  const result: Array<[ChannelGroupSettingName, GroupSettingValue]> = [];
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    const request = requested[setting];
    if (!request) continue;
    const checked = await checkGroupSettingUpdate(tx, setting, request, channel[GROUP_COLUMN[setting]], CHANNEL_GROUP_SETTINGS[setting].rules);
    if (checked === null) continue;
    if (SETTINGS_NEEDING_CONTENT_ACCESS.has(setting) && !hasContentAccess(viewer, channel)) throw badRequest("Channel content access is required.");
    result.push([setting, checked]);
  }
  return result;
}

async function subscribersOf(tx: Tx, channel: Channel): Promise<number[]> {
  return (await activeSubscriberIds(tx, [channel.id])).get(channel.id) ?? [];
}

/** Saves columns and tells everyone who sees the channel: one stream update event. */
async function changeProperty(tx: Tx, channel: Channel, columns: Partial<NewChannel>, property: string, value: StreamUpdateEvent["value"], extra: Partial<StreamUpdateEvent> = {}): Promise<Channel> {
  const updated = await saveChannel(tx, channel.id, columns);
  tx.emit({ type: "stream", op: "update", stream_id: channel.id, name: channel.name, property, value, ...extra }, await channelAudience(tx, updated));
  return updated;
}

/**
 * Applies a change of who may see the channel: those who now may are told it exists (and
 * who is in it), those who no longer may are told it is gone, everyone else gets an update.
 */
async function announceMetadataAccessChange(tx: Tx, before: Set<number>, updated: Channel, update: StreamUpdateEvent, subscribers: number[]) {
  const after = await new ChannelAudience(tx).withMetadataAccess(updated, subscribers);
  const gainers = [...after].filter((id) => !before.has(id));
  const losers = [...before].filter((id) => !after.has(id));
  tx.emit(update, [...after].filter((id) => before.has(id)));
  if (gainers.length > 0) {
    tx.emit({ type: "stream", op: "create", streams: [(await ChannelShaper.load(tx, [updated])).channel(updated)] }, gainers);
    if (subscribers.length > 0) tx.emit({ type: "subscription", op: "peer_add", stream_ids: [updated.id], user_ids: subscribers }, gainers);
  }
  if (losers.length > 0) tx.emit({ type: "stream", op: "delete", streams: [{ stream_id: updated.id }], stream_ids: [updated.id] }, losers);
}

async function changePrivacy(tx: Tx, channel: Channel, privacy: Privacy): Promise<Channel> {
  const subscribers = await subscribersOf(tx, channel);
  const before = await new ChannelAudience(tx).withMetadataAccess(channel, subscribers);
  const updated = await saveChannel(tx, channel.id, privacy);
  await announceMetadataAccessChange(
    tx,
    before,
    updated,
    {
      type: "stream",
      op: "update",
      stream_id: channel.id,
      name: channel.name,
      property: "invite_only",
      value: updated.inviteOnly,
      history_public_to_subscribers: updated.historyPublicToSubscribers,
      is_web_public: updated.isWebPublic,
    },
    subscribers,
  );
  return updated;
}

async function changeGroupSetting(tx: Tx, channel: Channel, setting: ChannelGroupSettingName, value: GroupSettingValue): Promise<Channel> {
  const column = GROUP_COLUMN[setting];
  const subscribers = await subscribersOf(tx, channel);
  // Measured before storing: an anonymous value is rewritten in place.
  const before = await new ChannelAudience(tx).withMetadataAccess(channel, subscribers);
  const oldPostPolicy = (await ChannelShaper.load(tx, [channel])).channel(channel).stream_post_policy;
  const oldGroupId = channel[column];
  const newGroupId = await storeGroupSettingValue(tx, value, oldGroupId, now());
  const updated = await saveChannel(tx, channel.id, { [column]: newGroupId });
  await releaseGroupSettingValue(tx, oldGroupId, newGroupId);
  const apiValue: ApiGroupSettingValue = await groupSettingApiValue(tx, newGroupId);
  const update: StreamUpdateEvent = { type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: setting, value: apiValue };
  if (SETTINGS_GRANTING_METADATA_ACCESS.includes(setting)) await announceMetadataAccessChange(tx, before, updated, update, subscribers);
  else tx.emit(update, before);
  const postPolicy = (await ChannelShaper.load(tx, [updated])).channel(updated).stream_post_policy;
  if (setting === "can_send_message_group" && postPolicy !== oldPostPolicy) {
    // The deprecated spellings, for clients that still read them.
    const legacy = { type: "stream", op: "update", stream_id: channel.id, name: channel.name } as const;
    tx.emit({ ...legacy, property: "stream_post_policy", value: postPolicy }, before);
    tx.emit({ ...legacy, property: "is_announcement_only", value: postPolicy === StreamPostPolicy.ADMINS }, before);
  }
  return updated;
}
