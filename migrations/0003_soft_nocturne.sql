CREATE TABLE `invites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`is_multiuse` integer NOT NULL,
	`email` text,
	`key` text NOT NULL,
	`invited_by_id` integer NOT NULL,
	`invited_as` integer NOT NULL,
	`stream_ids` text NOT NULL,
	`group_ids` text NOT NULL,
	`include_realm_default_subscriptions` integer NOT NULL,
	`notify_referrer_on_join` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`accepted_user_id` integer,
	FOREIGN KEY (`invited_by_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`accepted_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invites_key_unique` ON `invites` (`key`);--> statement-breakpoint
CREATE INDEX `invites_status_expiry` ON `invites` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `invites_email` ON `invites` (`email`);