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
CREATE INDEX `subscription_periods_channel` ON `subscription_periods` (`channel_id`);