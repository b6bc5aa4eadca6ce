// People and the organization: accounts and bot services, the realm, browser sessions, password
// resets, invitations, user groups. SQLite's tables; their PostgreSQL twins are in ../postgres/
// (same file names).
import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { RealmSettings } from "../../model/realmSettings";
import type { UserSettings } from "../../model/userSettings";
import type { InviteStatus } from "../columnTypes";

/** Humans and bots alike: a bot is a user with a bot_type and usually an owner. */
export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** API e-mail, stored lower-cased; unique across the organization. */
    email: text("email").notNull().unique(),
    /** Where mail is delivered; null for bots. */
    deliveryEmail: text("delivery_email"),
    fullName: text("full_name").notNull(),
    role: integer("role").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isBot: integer("is_bot", { mode: "boolean" }).notNull().default(false),
    /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; null for humans. */
    botType: integer("bot_type"),
    botOwnerId: integer("bot_owner_id").references((): AnySQLiteColumn => users.id),
    /** Built-in bots such as the notification bot; no one owns or deactivates them. */
    isSystemBot: integer("is_system_bot", { mode: "boolean" }).notNull().default(false),
    apiKey: text("api_key").notNull().unique(),
    /** argon2id via Bun.password; null for bots and users who never set one. */
    passwordHash: text("password_hash"),
    timezone: text("timezone").notNull().default(""),
    dateJoined: integer("date_joined").notNull(),
    avatarVersion: integer("avatar_version").notNull().default(1),
    /** The uploaded avatar's file (db/fileStore.ts, by content hash); null: the gravatar. */
    avatarFile: text("avatar_file"),
    settings: text("settings", { mode: "json" }).$type<UserSettings>().notNull(),
  },
  (table) => [index("users_bot_owner").on(table.botOwnerId)],
);

/** Configuration of outgoing-webhook and embedded bots (one row per bot). */
export const botServices = sqliteTable("bot_services", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  botId: integer("bot_id")
    .notNull()
    .unique()
    .references(() => users.id),
  baseUrl: text("base_url").notNull(),
  /** Fixed per bot; sent in every outgoing notification so the receiver can trust it (spec 5.5). */
  token: text("token").notNull(),
  /** 1 native format, 2 Slack-compatible. */
  interface: integer("interface").notNull().default(1),
});

/** The one organization this server hosts. Settings live in JSON so new ones need no migration. */
export const realms = sqliteTable("realms", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  /** Canonical URL clients reach us at; bots' e-mail domain comes from its host. */
  url: text("url").notNull(),
  dateCreated: integer("date_created").notNull(),
  deactivated: integer("deactivated", { mode: "boolean" }).notNull().default(false),
  settings: text("settings", { mode: "json" }).$type<RealmSettings>().notNull(),
  userSettingsDefaults: text("user_settings_defaults", { mode: "json" }).$type<UserSettings>().notNull(),
});

/**
 * Browser sign-ins. The cookie holds a random token; only its SHA-256 is stored, so a copy of
 * the database signs nobody in. API keys stay the credential of programs.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** UNIX seconds. */
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    /** UNIX seconds; moved forward as the session is used (an idle session ends). */
    expiresAt: integer("expires_at").notNull(),
    userAgent: text("user_agent").notNull(),
    address: text("address").notNull(),
  },
  (table) => [index("sessions_user").on(table.userId), index("sessions_expiry").on(table.expiresAt)],
);

/**
 * One-time links that let a person choose a new password: e-mailed to them, or handed over by
 * an administrator. Only the token's SHA-256 is stored; a link works once, until it expires.
 */
export const passwordResets = sqliteTable("password_resets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tokenHash: text("token_hash").notNull().unique(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id),
  /** Who asked for it: the person themselves or an administrator. */
  createdById: integer("created_by_id")
    .notNull()
    .references(() => users.id),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});

export const invites = sqliteTable(
  "invites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    isMultiuse: integer("is_multiuse", { mode: "boolean" }).notNull(),
    /** The invited address (lower-cased); null for a reusable link. */
    email: text("email"),
    /** The secret in the link; whoever holds it may sign up. */
    key: text("key").notNull().unique(),
    invitedById: integer("invited_by_id")
      .notNull()
      .references(() => users.id),
    invitedAs: integer("invited_as").notNull(),
    streamIds: text("stream_ids", { mode: "json" }).$type<number[]>().notNull(),
    groupIds: text("group_ids", { mode: "json" }).$type<number[]>().notNull(),
    includeRealmDefaultSubscriptions: integer("include_realm_default_subscriptions", { mode: "boolean" }).notNull(),
    notifyReferrerOnJoin: integer("notify_referrer_on_join", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull(),
    /** UNIX seconds; null: never expires. */
    expiresAt: integer("expires_at"),
    status: text("status").$type<InviteStatus>().notNull().default("pending"),
    /** For an e-mail invitation, the account made with it. */
    acceptedUserId: integer("accepted_user_id").references(() => users.id),
  },
  (table) => [index("invites_status_expiry").on(table.status, table.expiresAt), index("invites_email").on(table.email)],
);

/** A reference to a user group (a group permission setting, or a membership). */
const groupRef = (column: string) => integer(column).references((): AnySQLiteColumn => userGroups.id);

/**
 * User groups: the named ones people manage, the role:* system groups, and unnamed groups
 * that hold an anonymous group-setting value ({direct_members, direct_subgroups}).
 */
export const userGroups = sqliteTable(
  "user_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** null for the unnamed group behind an anonymous group-setting value. */
    name: text("name"),
    description: text("description").notNull().default(""),
    isSystemGroup: integer("is_system_group", { mode: "boolean" }).notNull().default(false),
    deactivated: integer("deactivated", { mode: "boolean" }).notNull().default(false),
    dateCreated: integer("date_created"),
    creatorId: integer("creator_id").references(() => users.id),
    canAddMembersGroup: groupRef("can_add_members_group"),
    canJoinGroup: groupRef("can_join_group"),
    canLeaveGroup: groupRef("can_leave_group"),
    canManageGroup: groupRef("can_manage_group"),
    canMentionGroup: groupRef("can_mention_group"),
    canRemoveMembersGroup: groupRef("can_remove_members_group"),
  },
  (table) => [index("user_groups_name").on(table.name)],
);

export const userGroupMembers = sqliteTable(
  "user_group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => userGroups.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index("user_group_members_user").on(table.userId)],
);

export const userGroupSubgroups = sqliteTable(
  "user_group_subgroups",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => userGroups.id, { onDelete: "cascade" }),
    subgroupId: integer("subgroup_id")
      .notNull()
      .references(() => userGroups.id),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.subgroupId] }), index("user_group_subgroups_sub").on(table.subgroupId)],
);
