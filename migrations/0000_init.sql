CREATE TABLE `user_group_members` (
	`group_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `user_id`),
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_group_members_user` ON `user_group_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `user_group_subgroups` (
	`group_id` integer NOT NULL,
	`subgroup_id` integer NOT NULL,
	PRIMARY KEY(`group_id`, `subgroup_id`),
	FOREIGN KEY (`group_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subgroup_id`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_group_subgroups_sub` ON `user_group_subgroups` (`subgroup_id`);--> statement-breakpoint
CREATE TABLE `user_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text,
	`description` text DEFAULT '' NOT NULL,
	`is_system_group` integer DEFAULT false NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	`date_created` integer,
	`creator_id` integer,
	`canAddMembersGroup` integer,
	`canJoinGroup` integer,
	`canLeaveGroup` integer,
	`canManageGroup` integer,
	`canMentionGroup` integer,
	`canRemoveMembersGroup` integer,
	FOREIGN KEY (`creator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`canAddMembersGroup`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`canJoinGroup`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`canLeaveGroup`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`canManageGroup`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`canMentionGroup`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`canRemoveMembersGroup`) REFERENCES `user_groups`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_groups_name` ON `user_groups` (`name`);--> statement-breakpoint
CREATE TABLE `realms` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`url` text NOT NULL,
	`date_created` integer NOT NULL,
	`deactivated` integer DEFAULT false NOT NULL,
	`settings` text NOT NULL,
	`user_settings_defaults` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `bot_services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bot_id` integer NOT NULL,
	`base_url` text NOT NULL,
	`token` text NOT NULL,
	`interface` integer DEFAULT 1 NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bot_services_bot_id_unique` ON `bot_services` (`bot_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`delivery_email` text,
	`full_name` text NOT NULL,
	`role` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`is_bot` integer DEFAULT false NOT NULL,
	`bot_type` integer,
	`bot_owner_id` integer,
	`is_system_bot` integer DEFAULT false NOT NULL,
	`api_key` text NOT NULL,
	`password_hash` text,
	`timezone` text DEFAULT '' NOT NULL,
	`date_joined` integer NOT NULL,
	`avatar_version` integer DEFAULT 1 NOT NULL,
	`settings` text NOT NULL,
	FOREIGN KEY (`bot_owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_api_key_unique` ON `users` (`api_key`);--> statement-breakpoint
CREATE INDEX `users_bot_owner` ON `users` (`bot_owner_id`);