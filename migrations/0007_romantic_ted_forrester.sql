CREATE TABLE `linkifiers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pattern` text NOT NULL,
	`url_template` text NOT NULL,
	`order` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `linkifiers_pattern_unique` ON `linkifiers` (`pattern`);--> statement-breakpoint
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
CREATE TABLE `user_statuses` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`status_text` text DEFAULT '' NOT NULL,
	`emoji_name` text DEFAULT '' NOT NULL,
	`emoji_code` text DEFAULT '' NOT NULL,
	`reaction_type` text DEFAULT 'unicode_emoji' NOT NULL,
	`timestamp` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
