CREATE TABLE `alert_words` (
	`user_id` integer NOT NULL,
	`word` text NOT NULL,
	PRIMARY KEY(`user_id`, `word`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `bot_storage` (
	`bot_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`bot_id`, `key`),
	FOREIGN KEY (`bot_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `client_devices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`create_time` integer NOT NULL,
	`push_key_id` integer,
	`push_key` text,
	`token_kind` text,
	`token_id` text,
	`bouncer_public_key` text,
	`encrypted_push_registration` text,
	`push_registration_time` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `client_devices_user` ON `client_devices` (`user_id`);--> statement-breakpoint
CREATE TABLE `muted_users` (
	`user_id` integer NOT NULL,
	`muted_user_id` integer NOT NULL,
	`date_muted` integer NOT NULL,
	PRIMARY KEY(`user_id`, `muted_user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`muted_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `presences` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`last_active_time` integer NOT NULL,
	`last_connected_time` integer NOT NULL,
	`last_update_id` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `realm_emoji` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`author_id` integer,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`file_name` text NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	`create_time` integer NOT NULL,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `attachment_messages` (
	`attachment_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	PRIMARY KEY(`attachment_id`, `message_id`),
	FOREIGN KEY (`attachment_id`) REFERENCES `attachments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `attachment_messages_message` ON `attachment_messages` (`message_id`);--> statement-breakpoint
CREATE TABLE `attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`path_id` text NOT NULL,
	`file_name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`create_time` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attachments_path_id_unique` ON `attachments` (`path_id`);--> statement-breakpoint
CREATE INDEX `attachments_owner` ON `attachments` (`owner_id`);--> statement-breakpoint
CREATE INDEX `attachments_sha256` ON `attachments` (`sha256`);