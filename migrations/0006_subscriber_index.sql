DROP INDEX `subscriptions_channel_active`;--> statement-breakpoint
CREATE INDEX `subscriptions_channel_active_user` ON `subscriptions` (`channel_id`,`active`,`user_id`);