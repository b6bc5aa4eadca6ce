import type { NewChannelSettings } from "../access/channelCreation";
import { ChannelAudience, accessChannel, accessChannelToAdminister, channelAudience } from "../access/channels";
import { requireAdministrator } from "../access/users";
import { activeSubscriberIds, addDefaultChannel, type Channel, defaultChannelIds, insertChannel, removeDefaultChannel, subscriptionsOf, updateChannel } from "../db/channels";
import { getRealm, setRealmSettings } from "../db/realm";
import { storeGroupSettingValue, systemGroupsByName } from "../db/userGroups";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { renderChannelDescription } from "../messages/compose";
import { CHANNEL_GROUP_SETTINGS, type ChannelGroupSettingName } from "../model/channelSettings";
import { ChannelShaper } from "../shapes/channels";
import { now } from "../model/clock";
import { announceRealmUpdate } from "./realmSettings";

/**
 * Creates channels with the same settings and tells everyone who may see each of them. The
 * checks are the caller's (checkChannelCreation).
 */
export async function createChannels(tx: Tx, creator: User, wanted: Array<{ name: string; description: string }>, settings: NewChannelSettings): Promise<Channel[]> {
  const created = now();
  const systemGroups = await systemGroupsByName(tx);
  // Each channel gets its own unnamed groups: an anonymous value belongs to one setting of one channel.
  const groupIdOf = async (setting: ChannelGroupSettingName): Promise<number> => {
    const chosen = settings.groupSettings[setting];
    const fallback = CHANNEL_GROUP_SETTINGS[setting].default;
    if (chosen !== undefined) return storeGroupSettingValue(tx, chosen, null, created);
    if (fallback === "channel_creator") return storeGroupSettingValue(tx, { direct_members: [creator.id], direct_subgroups: [] }, null, created);
    return systemGroups.get(fallback)!.id;
  };
  const channels: Channel[] = [];
  for (const { name, description } of wanted) {
    channels.push(
      await insertChannel(tx, {
        name,
        nameKey: name.toLowerCase(),
        description,
        renderedDescription: await renderChannelDescription(tx, creator, await getRealm(tx), description),
        dateCreated: created,
        creatorId: creator.id,
        inviteOnly: settings.inviteOnly,
        isWebPublic: settings.isWebPublic,
        historyPublicToSubscribers: settings.inviteOnly ? (settings.historyPublicToSubscribers ?? false) : true,
        messageRetentionDays: settings.messageRetentionDays,
        canAddSubscribersGroup: await groupIdOf("can_add_subscribers_group"),
        canRemoveSubscribersGroup: await groupIdOf("can_remove_subscribers_group"),
        canAdministerChannelGroup: await groupIdOf("can_administer_channel_group"),
        canSendMessageGroup: await groupIdOf("can_send_message_group"),
        canSubscribeGroup: await groupIdOf("can_subscribe_group"),
      }),
    );
  }
  const audience = new ChannelAudience(tx);
  const shaper = await ChannelShaper.load(tx, channels);
  for (const channel of channels) tx.emit({ type: "stream", op: "create", streams: [shaper.channel(channel)] }, await audience.withMetadataAccess(channel, []));
  if (settings.isDefault && channels.length > 0) await setDefaultChannels(tx, channels, true);
  return channels;
}

/** Makes channels default channels for new users, or stops them being ones; tells everyone once. */
export async function setDefaultChannels(tx: Tx, channels: Channel[], isDefault: boolean) {
  let changed = false;
  for (const channel of channels) changed = (await (isDefault ? addDefaultChannel(tx, channel.id) : removeDefaultChannel(tx, channel.id))) || changed;
  if (changed) tx.emit({ type: "default_streams", default_streams: await defaultChannelIds(tx) }, await new ChannelAudience(tx).allActiveIds());
}

export const setDefaultChannel = (tx: Tx, channel: Channel, isDefault: boolean) => setDefaultChannels(tx, [channel], isDefault);

/** POST /default_streams. */
export async function addDefaultChannelById(actor: User, channelId: number) {
  requireAdministrator(actor, "change default channels");
  await write(async (tx) => {
    const { channel } = await accessChannel(tx, actor, channelId, "content");
    if (channel.inviteOnly) throw badRequest("Private channels cannot be made default.");
    if (channel.isArchived) throw badRequest("Archived channels cannot be made default.");
    await setDefaultChannel(tx, channel, true);
  });
}

/** DELETE /default_streams. */
export async function removeDefaultChannelById(actor: User, channelId: number) {
  requireAdministrator(actor, "change default channels");
  await write(async (tx) => setDefaultChannel(tx, (await accessChannel(tx, actor, channelId, "metadata")).channel, false));
}

/**
 * DELETE /streams/{id}: archives a channel. It keeps its subscribers and messages but accepts
 * no new messages, stops being a default channel and stops being the announcements channel.
 */
export async function archiveChannel(actor: User, channelId: number) {
  await write(async (tx) => archive(tx, (await accessChannelToAdminister(tx, actor, channelId)).channel));
}

export async function archive(tx: Tx, channel: Channel) {
  if (channel.isArchived) throw badRequest("Channel is already archived.");
  const audience = await channelAudience(tx, channel);
  const archived = await updateChannel(tx, channel.id, { isArchived: true });
  await setDefaultChannel(tx, archived, false);
  const realm = await getRealm(tx);
  if (realm.settings.new_stream_announcements_stream_id === channel.id) {
    await setRealmSettings(tx, { ...realm.settings, new_stream_announcements_stream_id: null });
    await announceRealmUpdate(tx, "new_stream_announcements_stream_id", -1);
  }
  tx.emit({ type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "is_archived", value: true }, audience);
  tx.emit({ type: "stream", op: "delete", streams: [{ stream_id: channel.id }], stream_ids: [channel.id], for_archiving: true }, audience);
}

export async function unarchive(tx: Tx, channel: Channel) {
  if (!channel.isArchived) throw badRequest("Channel is not archived.");
  if (channel.inviteOnly && ((await activeSubscriberIds(tx, [channel.id])).get(channel.id) ?? []).length === 0) {
    throw badRequest("A private channel without subscribers cannot be unarchived.");
  }
  const restored = await updateChannel(tx, channel.id, { isArchived: false });
  const audience = await channelAudience(tx, restored);
  const shaper = await ChannelShaper.load(tx, [restored]);
  tx.emit({ type: "stream", op: "update", stream_id: channel.id, name: channel.name, property: "is_archived", value: false }, audience);
  tx.emit({ type: "stream", op: "create", streams: [shaper.channel(restored)], for_unarchiving: true }, audience);
  // Clients that saw the channel deleted also get their subscriptions to it back.
  const subscribers = (await activeSubscriberIds(tx, [channel.id])).get(channel.id) ?? [];
  for (const row of await subscriptionsOf(tx, subscribers, [channel.id])) {
    tx.emit({ type: "subscription", op: "add", subscriptions: [{ ...shaper.subscription(restored, row), subscribers }], for_unarchiving: true }, [row.userId]);
  }
}
