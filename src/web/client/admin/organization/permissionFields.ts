/** The organization permissions the Permissions tab shows, grouped as people look for them. */

export interface GroupSettingField {
  name: string;
  label: string;
  hint?: string;
  ownerOnly?: boolean;
}

export const GROUP_SETTING_SECTIONS: Array<{ title: string; fields: GroupSettingField[] }> = [
  {
    title: "Channels",
    fields: [
      { name: "can_create_public_channel_group", label: "Who can create public channels" },
      { name: "can_create_private_channel_group", label: "Who can create private channels" },
      { name: "can_create_web_public_channel_group", label: "Who can create web-public channels", hint: "Channels anyone on the internet may read, when that is allowed below." },
      { name: "can_add_subscribers_group", label: "Who can add others to channels" },
    ],
  },
  {
    title: "Messages",
    fields: [
      { name: "can_delete_own_message_group", label: "Who can delete their own messages" },
      { name: "can_delete_any_message_group", label: "Who can delete anyone's messages" },
      { name: "can_move_messages_between_topics_group", label: "Who can move messages to another topic" },
      { name: "can_move_messages_between_channels_group", label: "Who can move messages to another channel" },
      { name: "can_resolve_topics_group", label: "Who can mark topics resolved" },
      { name: "can_mention_many_users_group", label: "Who can notify many people at once", hint: "@all, @everyone and mentions of large groups." },
    ],
  },
  {
    title: "Direct messages",
    fields: [
      { name: "direct_message_permission_group", label: "Who can take part in direct messages", hint: "Others can only message bots and themselves." },
      { name: "direct_message_initiator_group", label: "Who can start a direct message conversation" },
    ],
  },
  {
    title: "People, groups and bots",
    fields: [
      { name: "can_invite_users_group", label: "Who can invite people", ownerOnly: true },
      { name: "create_multiuse_invite_group", label: "Who can create reusable invitation links", ownerOnly: true },
      { name: "can_create_groups", label: "Who can create user groups", ownerOnly: true },
      { name: "can_manage_all_groups", label: "Who can manage every user group", ownerOnly: true },
      { name: "can_create_bots_group", label: "Who can create any bot" },
      { name: "can_create_write_only_bots_group", label: "Who can create bots that only send messages" },
      { name: "can_add_custom_emoji_group", label: "Who can add custom emoji" },
    ],
  },
];

export const TIME_LIMITS = [
  { name: "message_content_edit_limit_seconds", label: "Time limit for editing", hint: "How long after sending people may edit a message." },
  { name: "message_content_delete_limit_seconds", label: "Time limit for deleting", hint: "How long after sending people may delete their message." },
  { name: "move_messages_within_stream_limit_seconds", label: "Time limit for moving between topics", hint: "After sending. Moderators and above have no limit." },
  { name: "move_messages_between_streams_limit_seconds", label: "Time limit for moving between channels", hint: "After sending. Moderators and above have no limit." },
] as const;
