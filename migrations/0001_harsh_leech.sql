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
CREATE INDEX `subscriptions_channel_active` ON `subscriptions` (`channel_id`,`active`);