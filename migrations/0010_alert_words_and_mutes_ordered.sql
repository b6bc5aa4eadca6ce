PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_alert_words` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`word` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_alert_words`("id", "user_id", "word") SELECT rowid, "user_id", "word" FROM `alert_words` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `alert_words`;--> statement-breakpoint
ALTER TABLE `__new_alert_words` RENAME TO `alert_words`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `alert_words_user_word` ON `alert_words` (`user_id`,`word`);--> statement-breakpoint
CREATE TABLE `__new_muted_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`muted_user_id` integer NOT NULL,
	`date_muted` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`muted_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_muted_users`("id", "user_id", "muted_user_id", "date_muted") SELECT rowid, "user_id", "muted_user_id", "date_muted" FROM `muted_users` ORDER BY rowid;--> statement-breakpoint
DROP TABLE `muted_users`;--> statement-breakpoint
ALTER TABLE `__new_muted_users` RENAME TO `muted_users`;--> statement-breakpoint
CREATE UNIQUE INDEX `muted_users_user_muted` ON `muted_users` (`user_id`,`muted_user_id`);