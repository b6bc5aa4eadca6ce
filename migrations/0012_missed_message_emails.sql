CREATE TABLE `missed_message_emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`recipient_id` integer NOT NULL,
	`reason` text NOT NULL,
	`due_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `missed_message_emails_user_message` ON `missed_message_emails` (`user_id`,`message_id`);--> statement-breakpoint
CREATE INDEX `missed_message_emails_due` ON `missed_message_emails` (`due_at`);