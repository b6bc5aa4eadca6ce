CREATE TABLE `channels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`rendered_description` text DEFAULT '' NOT NULL,
	`date_created` integer NOT NULL,
	`creator_id` integer,
	`is_archived` integer DEFAULT false NOT NULL,
	`invite_only` integer DEFAULT false NOT NULL,
	`is_web_public` integer DEFAULT false NOT NULL,
	`history_public_to_subscribers` integer DEFAULT true NOT NULL,
	`message_retention_days` integer,
	`first_message_id` integer,
	`is_recently_active` integer DEFAULT true NOT NULL,
	`weekly_traffic` integer,
	`can_add_subscribers_group` integer NOT NULL,
	`can_remove_subscribers_group` integer NOT NULL,
	`can_administer_channel_group` integer NOT NULL,
	`can_send_message_group` integer NOT NULL,
	`can_subscribe_group` integer NOT NULL,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_add_subscribers_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_remove_subscribers_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_administer_channel_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_send_message_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_subscribe_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `channels_name_key_unique` ON `channels` (`name_key`);--> statement-breakpoint
CREATE TABLE `default_channels` (
	`channel_id` integer PRIMARY KEY NOT NULL,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`color` text NOT NULL,
	`is_muted` integer DEFAULT false NOT NULL,
	`pin_to_top` integer DEFAULT false NOT NULL,
	`desktop_notifications` integer,
	`audible_notifications` integer,
	`push_notifications` integer,
	`email_notifications` integer,
	`wildcard_mentions_notify` integer,
	PRIMARY KEY(`user_id`, `channel_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `subscriptions_channel_active_user` ON `subscriptions` (`channel_id`,`active`,`user_id`);--> statement-breakpoint
CREATE TABLE `drafts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`to` text NOT NULL,
	`topic` text NOT NULL,
	`content` text NOT NULL,
	`timestamp` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `drafts_user` ON `drafts` (`user_id`,`timestamp`);--> statement-breakpoint
CREATE TABLE `user_group_members` (
	`group_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_group_members_user` ON `user_group_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `user_group_subgroups` (
	`group_id` integer NOT NULL,
	`subgroup_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `subgroup_id`),
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subgroup_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_group_subgroups_sub` ON `user_group_subgroups` (`subgroup_id`);--> statement-breakpoint
CREATE TABLE `user_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text,
	`description` text DEFAULT '' NOT NULL,
	`is_system_group` integer DEFAULT false NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	`date_created` integer,
	`creator_id` integer,
	`can_add_members_group` integer,
	`can_join_group` integer,
	`can_leave_group` integer,
	`can_manage_group` integer,
	`can_mention_group` integer,
	`can_remove_members_group` integer,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_add_members_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_join_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_leave_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_manage_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_mention_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`can_remove_members_group`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_groups_name` ON `user_groups` (`name`);--> statement-breakpoint
CREATE TABLE `linkifiers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pattern` text NOT NULL,
	`url_template` text NOT NULL,
	`order` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `linkifiers_pattern_unique` ON `linkifiers` (`pattern`);--> statement-breakpoint
CREATE TABLE `message_flags` (
	`user_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`recipient_id` integer NOT NULL,
	`flags` integer NOT NULL,
	PRIMARY KEY(`user_id`, `message_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_flags_user_recipient` ON `message_flags` (`user_id`,`recipient_id`,`message_id`);--> statement-breakpoint
CREATE INDEX `message_flags_message` ON `message_flags` (`message_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipient_id` integer NOT NULL,
	`channel_id` integer,
	`topic` text DEFAULT '' NOT NULL,
	`topic_key` text DEFAULT '' NOT NULL,
	`sender_id` integer NOT NULL,
	`content` text NOT NULL,
	`rendered_content` text NOT NULL,
	`client` text DEFAULT 'API' NOT NULL,
	`date_sent` integer NOT NULL,
	`is_me_message` integer DEFAULT false NOT NULL,
	`has_link` integer DEFAULT false NOT NULL,
	`has_image` integer DEFAULT false NOT NULL,
	`has_attachment` integer DEFAULT false NOT NULL,
	`last_edit_time` integer,
	`last_moved_time` integer,
	`edit_history` text,
	FOREIGN KEY (`recipient_id`) REFERENCES `recipients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `messages_channel_topic` ON `messages` (`channel_id`,`topic_key`,`id`);--> statement-breakpoint
CREATE INDEX `messages_recipient` ON `messages` (`recipient_id`,`id`);--> statement-breakpoint
CREATE INDEX `messages_sender` ON `messages` (`sender_id`,`id`);--> statement-breakpoint
CREATE TABLE `read_marks` (
	`user_id` integer NOT NULL,
	`recipient_id` integer NOT NULL,
	`read_up_to` integer NOT NULL,
	PRIMARY KEY(`user_id`, `recipient_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`recipient_id`) REFERENCES `recipients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `recipient_users` (
	`recipient_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`recipient_id`, `user_id`),
	FOREIGN KEY (`recipient_id`) REFERENCES `recipients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `recipient_users_user` ON `recipient_users` (`user_id`);--> statement-breakpoint
CREATE TABLE `recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer NOT NULL,
	`channel_id` integer,
	`dm_key` text,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `recipients_channel_id_unique` ON `recipients` (`channel_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `recipients_dm_key_unique` ON `recipients` (`dm_key`);--> statement-breakpoint
CREATE TABLE `subscription_periods` (
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`starts_after` integer NOT NULL,
	`ends_at` integer,
	PRIMARY KEY(`user_id`, `channel_id`, `starts_after`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `subscription_periods_channel` ON `subscription_periods` (`channel_id`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `outbox_pending` ON `outbox` (`sent_at`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `push_devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`token` text NOT NULL,
	`app_id` text,
	`last_updated` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_devices_kind_token` ON `push_devices` (`kind`,`token`);--> statement-breakpoint
CREATE TABLE `reactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`emoji_name` text NOT NULL,
	`emoji_code` text NOT NULL,
	`reaction_type` text NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reactions_identity` ON `reactions` (`message_id`,`user_id`,`emoji_code`,`reaction_type`);--> statement-breakpoint
CREATE INDEX `reactions_message_code` ON `reactions` (`message_id`,`emoji_code`,`reaction_type`);--> statement-breakpoint
CREATE TABLE `realms` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`url` text NOT NULL,
	`date_created` integer NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	`settings` text NOT NULL,
	`user_settings_defaults` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `saved_snippets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`title` text NOT NULL,
	`content` text NOT NULL,
	`date_created` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `saved_snippets_user` ON `saved_snippets` (`user_id`);--> statement-breakpoint
CREATE TABLE `bot_services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bot_id` integer NOT NULL,
	`base_url` text NOT NULL,
	`token` text NOT NULL,
	`interface` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bot_services_bot_id_unique` ON `bot_services` (`bot_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`delivery_email` text,
	`full_name` text NOT NULL,
	`role` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_bot` integer DEFAULT false NOT NULL,
	`bot_type` integer,
	`bot_owner_id` integer,
	`is_system_bot` integer DEFAULT false NOT NULL,
	`api_key` text NOT NULL,
	`password_hash` text,
	`timezone` text DEFAULT '' NOT NULL,
	`date_joined` integer NOT NULL,
	`avatar_version` integer DEFAULT 1 NOT NULL,
	`settings` text NOT NULL,
	FOREIGN KEY (`bot_owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_api_key_unique` ON `users` (`api_key`);--> statement-breakpoint
CREATE INDEX `users_bot_owner` ON `users` (`bot_owner_id`);--> statement-breakpoint
CREATE TABLE `user_statuses` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`status_text` text DEFAULT '' NOT NULL,
	`emoji_name` text DEFAULT '' NOT NULL,
	`emoji_code` text DEFAULT '' NOT NULL,
	`reaction_type` text DEFAULT 'unicode_emoji' NOT NULL,
	`timestamp` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `user_topics` (
	`user_id` integer NOT NULL,
	`channel_id` integer NOT NULL,
	`topic_key` text NOT NULL,
	`topic` text NOT NULL,
	`visibility_policy` integer NOT NULL,
	`last_updated` integer NOT NULL,
	PRIMARY KEY(`user_id`, `channel_id`, `topic_key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`channel_id`) REFERENCES `channels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_topics_channel_topic` ON `user_topics` (`channel_id`,`topic_key`);