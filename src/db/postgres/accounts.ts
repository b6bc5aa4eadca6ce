/** PostgreSQL's tables of users, the organization, sign-in and user groups (see ./tables.ts). */
import { type AnyPgColumn, boolean, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { InviteStatus } from "../columnTypes";
import { id, int, type RealmSettings, type UserSettings, jsonb } from "./columns";

// ---- Users, the organization, sign-in ----

export const users = pgTable(
  "users",
  {
    id: id(),
    email: text("email").notNull().unique(),
    deliveryEmail: text("delivery_email"),
    fullName: text("full_name").notNull(),
    role: int("role").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    isBot: boolean("is_bot").notNull().default(false),
    botType: int("bot_type"),
    botOwnerId: int("bot_owner_id").references((): AnyPgColumn => users.id),
    isSystemBot: boolean("is_system_bot").notNull().default(false),
    apiKey: text("api_key").notNull().unique(),
    passwordHash: text("password_hash"),
    timezone: text("timezone").notNull().default(""),
    dateJoined: int("date_joined").notNull(),
    avatarVersion: int("avatar_version").notNull().default(1),
    avatarFile: text("avatar_file"),
    settings: jsonb("settings").$type<UserSettings>().notNull(),
  },
  (table) => [index("users_bot_owner").on(table.botOwnerId)],
);

export const botServices = pgTable("bot_services", {
  id: id(),
  botId: int("bot_id")
    .notNull()
    .unique()
    .references(() => users.id),
  baseUrl: text("base_url").notNull(),
  token: text("token").notNull(),
  interface: int("interface").notNull().default(1),
});

/** The one organization: always inserted with its ID (REALM_ID), so no identity. */
export const realms = pgTable("realms", {
  id: int("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  url: text("url").notNull(),
  dateCreated: int("date_created").notNull(),
  deactivated: boolean("deactivated").notNull().default(false),
  settings: jsonb("settings").$type<RealmSettings>().notNull(),
  userSettingsDefaults: jsonb("user_settings_defaults").$type<UserSettings>().notNull(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
    createdAt: int("created_at").notNull(),
    lastSeenAt: int("last_seen_at").notNull(),
    expiresAt: int("expires_at").notNull(),
    userAgent: text("user_agent").notNull(),
    address: text("address").notNull(),
  },
  (table) => [index("sessions_user").on(table.userId), index("sessions_expiry").on(table.expiresAt)],
);

export const passwordResets = pgTable("password_resets", {
  id: id(),
  tokenHash: text("token_hash").notNull().unique(),
  userId: int("user_id")
    .notNull()
    .references(() => users.id),
  createdById: int("created_by_id")
    .notNull()
    .references(() => users.id),
  createdAt: int("created_at").notNull(),
  expiresAt: int("expires_at").notNull(),
  usedAt: int("used_at"),
});

export const invites = pgTable(
  "invites",
  {
    id: id(),
    isMultiuse: boolean("is_multiuse").notNull(),
    email: text("email"),
    key: text("key").notNull().unique(),
    invitedById: int("invited_by_id")
      .notNull()
      .references(() => users.id),
    invitedAs: int("invited_as").notNull(),
    streamIds: jsonb("stream_ids").$type<number[]>().notNull(),
    groupIds: jsonb("group_ids").$type<number[]>().notNull(),
    includeRealmDefaultSubscriptions: boolean("include_realm_default_subscriptions").notNull(),
    notifyReferrerOnJoin: boolean("notify_referrer_on_join").notNull(),
    createdAt: int("created_at").notNull(),
    expiresAt: int("expires_at"),
    status: text("status").$type<InviteStatus>().notNull().default("pending"),
    acceptedUserId: int("accepted_user_id").references(() => users.id),
  },
  (table) => [index("invites_status_expiry").on(table.status, table.expiresAt), index("invites_email").on(table.email)],
);

// ---- User groups ----

const groupRef = (name: string) => int(name).references((): AnyPgColumn => userGroups.id);

export const userGroups = pgTable(
  "user_groups",
  {
    id: id(),
    name: text("name"),
    description: text("description").notNull().default(""),
    isSystemGroup: boolean("is_system_group").notNull().default(false),
    deactivated: boolean("deactivated").notNull().default(false),
    dateCreated: int("date_created"),
    creatorId: int("creator_id").references(() => users.id),
    canAddMembersGroup: groupRef("can_add_members_group"),
    canJoinGroup: groupRef("can_join_group"),
    canLeaveGroup: groupRef("can_leave_group"),
    canManageGroup: groupRef("can_manage_group"),
    canMentionGroup: groupRef("can_mention_group"),
    canRemoveMembersGroup: groupRef("can_remove_members_group"),
  },
  (table) => [index("user_groups_name").on(table.name)],
);

export const userGroupMembers = pgTable(
  "user_group_members",
  {
    groupId: int("group_id")
      .notNull()
      .references(() => userGroups.id, { onDelete: "cascade" }),
    userId: int("user_id")
      .notNull()
      .references(() => users.id),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("user_group_members_user").on(table.userId)],
);

export const userGroupSubgroups = pgTable(
  "user_group_subgroups",
  {
    groupId: int("group_id")
      .notNull()
      .references(() => userGroups.id, { onDelete: "cascade" }),
    subgroupId: int("subgroup_id")
      .notNull()
      .references(() => userGroups.id),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.subgroupId] }), index("user_group_subgroups_sub").on(table.subgroupId)],
);
