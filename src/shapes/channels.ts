import type { Channel, Subscription } from "../db/channels";
import { systemGroupsByName } from "../db/userGroups";
import type { Reader } from "../db/types";
import { INHERITED_USER_SETTING, NOTIFICATION_PROPERTIES, StreamPostPolicy, streamPostPolicyOf } from "../model/channelSettings";
import type { UserSettings } from "../model/userSettings";
import { type ApiGroupSettingValue, groupSettingApiValues } from "./groupSettings";

/** A channel as the API shows it (spec 2.1; reference components/schemas/BasicChannel). */
export interface ApiChannel {
  stream_id: number;
  name: string;
  is_archived: boolean;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  stream_post_policy: number;
  is_announcement_only: boolean;
  message_retention_days: number | null;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
  is_recently_active: boolean;
  stream_weekly_traffic: number | null;
  can_add_subscribers_group: ApiGroupSettingValue;
  can_remove_subscribers_group: ApiGroupSettingValue;
  can_administer_channel_group: ApiGroupSettingValue;
  can_send_message_group: ApiGroupSettingValue;
  can_subscribe_group: ApiGroupSettingValue;
  is_default?: boolean;
  subscribers?: number[];
}

/** The personal part of a subscription (spec 2.2). */
export interface ApiSubscriptionSettings {
  color: string;
  is_muted: boolean;
  in_home_view: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

export type ApiSubscription = Omit<ApiChannel, "is_default"> & ApiSubscriptionSettings;

/**
 * Turns channel rows into API objects. Group-setting values of every channel are loaded in one
 * pass up front, so shaping a long list costs a few queries, not a few per channel.
 */
export class ChannelShaper {
  private constructor(
    private readonly settingValues: Map<number, ApiGroupSettingValue>,
    private readonly systemGroupNames: Map<number, string>,
  ) {}

  /** A shaper for these channels: `(await ChannelShaper.load(db, channels)).channel(...)`. */
  static async load(db: Reader, channels: Channel[]): Promise<ChannelShaper> {
    const settingValues = await groupSettingApiValues(
      db,
      channels.flatMap((c) => [c.canAddSubscribersGroup, c.canRemoveSubscribersGroup, c.canAdministerChannelGroup, c.canSendMessageGroup, c.canSubscribeGroup]),
    );
    const systemGroupNames = new Map([...(await systemGroupsByName(db))].map(([name, group]) => [group.id, name]));
    return new ChannelShaper(settingValues, systemGroupNames);
  }

  channel(channel: Channel): ApiChannel {
    const postPolicy = streamPostPolicyOf(this.systemGroupNames.get(channel.canSendMessageGroup));
    const value = (groupId: number) => this.settingValues.get(groupId) ?? groupId;
    return {
      stream_id: channel.id,
      name: channel.name,
      is_archived: channel.isArchived,
      description: channel.description,
      rendered_description: channel.renderedDescription,
      date_created: channel.dateCreated,
      creator_id: channel.creatorId,
      invite_only: channel.inviteOnly,
      is_web_public: channel.isWebPublic,
      stream_post_policy: postPolicy,
      is_announcement_only: postPolicy === StreamPostPolicy.ADMINS,
      message_retention_days: channel.messageRetentionDays,
      history_public_to_subscribers: channel.historyPublicToSubscribers,
      first_message_id: channel.firstMessageId,
      is_recently_active: channel.isRecentlyActive,
      stream_weekly_traffic: channel.weeklyTraffic,
      can_add_subscribers_group: value(channel.canAddSubscribersGroup),
      can_remove_subscribers_group: value(channel.canRemoveSubscribersGroup),
      can_administer_channel_group: value(channel.canAdministerChannelGroup),
      can_send_message_group: value(channel.canSendMessageGroup),
      can_subscribe_group: value(channel.canSubscribeGroup),
    };
  }

  subscription(channel: Channel, subscription: Subscription): ApiSubscription {
    return { ...this.channel(channel), ...subscriptionSettingsToApi(subscription) };
  }
}

export function subscriptionSettingsToApi(subscription: Subscription): ApiSubscriptionSettings {
  return {
    color: subscription.color,
    is_muted: subscription.isMuted,
    in_home_view: !subscription.isMuted,
    pin_to_top: subscription.pinToTop,
    desktop_notifications: subscription.desktopNotifications,
    audible_notifications: subscription.audibleNotifications,
    push_notifications: subscription.pushNotifications,
    email_notifications: subscription.emailNotifications,
    wildcard_mentions_notify: subscription.wildcardMentionsNotify,
  };
}

/**
 * For clients without the notification_settings_null capability: a null (inherit) setting
 * becomes the user's own setting, as older clients expect plain booleans.
 */
export function withInheritedNotifications<T extends ApiSubscriptionSettings>(subscription: T, settings: UserSettings): T {
  const filled = { ...subscription };
  for (const property of NOTIFICATION_PROPERTIES) {
    if (filled[property] === null) filled[property] = settings[INHERITED_USER_SETTING[property]] as boolean;
  }
  return filled;
}
