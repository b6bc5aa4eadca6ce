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