CREATE TABLE `scheduled_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sender_id` integer NOT NULL,
	`type` text NOT NULL,
	`to` text NOT NULL,
	`topic` text NOT NULL,
	`content` text NOT NULL,
	`rendered_content` text NOT NULL,
	`client` text NOT NULL,
	`scheduled_timestamp` integer NOT NULL,
	`read_by_sender` integer NOT NULL,
	`delivered` integer DEFAULT false NOT NULL,
	`delivered_message_id` integer,
	`failed` integer DEFAULT false NOT NULL,
	`failure_message` text,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `scheduled_messages_due` ON `scheduled_messages` (`delivered`,`failed`,`scheduled_timestamp`);--> statement-breakpoint
CREATE INDEX `scheduled_messages_sender` ON `scheduled_messages` (`sender_id`,`delivered`);