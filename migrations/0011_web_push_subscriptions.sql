CREATE TABLE `web_push_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_delivered_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `web_push_subscriptions_endpoint` ON `web_push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `web_push_subscriptions_user` ON `web_push_subscriptions` (`user_id`);