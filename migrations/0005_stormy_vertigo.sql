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
CREATE INDEX `reactions_message_code` ON `reactions` (`message_id`,`emoji_code`,`reaction_type`);