/**
 * The tables, for every query module of db/: they import tables from here and nowhere else
 * (test/unit/layers.test.ts), so that which dialect's tables a process uses is decided in one
 * place. Each is a live binding: SQLite's (./sqlite/) until a PostgreSQL database is opened,
 * whose client calls useTablesOf("postgres") before any query is built, and the bindings then
 * name the twins in ./postgres/. The twins are typed as their SQLite tables: the query modules
 * are written once, against one set of types, and test/unit/schemaParity.test.ts (same names,
 * columns, keys and indexes) with tsc's check that the row types match is what makes that honest.
 *
 * A query module must therefore read a table when it builds a query, never keep one in a
 * module-level value made at import (that would keep SQLite's).
 */
import type { Dialect } from "./dialect";
import * as postgres from "./postgres/tables";
import * as sqlite from "./sqlite/tables";

export * from "./sqlite/tables";

export let alertWords = sqlite.alertWords;
export let attachmentMessages = sqlite.attachmentMessages;
export let attachments = sqlite.attachments;
export let backupRuns = sqlite.backupRuns;
export let botServices = sqlite.botServices;
export let botStorage = sqlite.botStorage;
export let channels = sqlite.channels;
export let clientDevices = sqlite.clientDevices;
export let defaultChannels = sqlite.defaultChannels;
export let drafts = sqlite.drafts;
export let invites = sqlite.invites;
export let linkifiers = sqlite.linkifiers;
export let messageFlags = sqlite.messageFlags;
export let messages = sqlite.messages;
export let missedMessageEmails = sqlite.missedMessageEmails;
export let mutedUsers = sqlite.mutedUsers;
export let outbox = sqlite.outbox;
export let passwordResets = sqlite.passwordResets;
export let presences = sqlite.presences;
export let pushDevices = sqlite.pushDevices;
export let reactions = sqlite.reactions;
export let readMarks = sqlite.readMarks;
export let realmEmoji = sqlite.realmEmoji;
export let realms = sqlite.realms;
export let recipientUsers = sqlite.recipientUsers;
export let recipients = sqlite.recipients;
export let savedSnippets = sqlite.savedSnippets;
export let scheduledMessages = sqlite.scheduledMessages;
export let serverSettings = sqlite.serverSettings;
export let sessions = sqlite.sessions;
export let subscriptionPeriods = sqlite.subscriptionPeriods;
export let subscriptions = sqlite.subscriptions;
export let userGroupMembers = sqlite.userGroupMembers;
export let userGroupSubgroups = sqlite.userGroupSubgroups;
export let userGroups = sqlite.userGroups;
export let userStatuses = sqlite.userStatuses;
export let userTopics = sqlite.userTopics;
export let users = sqlite.users;
export let webPushSubscriptions = sqlite.webPushSubscriptions;

/** Points every table binding at `dialect`'s tables. */
export function useTablesOf(dialect: Dialect) {
  const from = (dialect === "postgres" ? postgres : sqlite) as unknown as typeof sqlite;
  alertWords = from.alertWords;
  attachmentMessages = from.attachmentMessages;
  attachments = from.attachments;
  backupRuns = from.backupRuns;
  botServices = from.botServices;
  botStorage = from.botStorage;
  channels = from.channels;
  clientDevices = from.clientDevices;
  defaultChannels = from.defaultChannels;
  drafts = from.drafts;
  invites = from.invites;
  linkifiers = from.linkifiers;
  messageFlags = from.messageFlags;
  messages = from.messages;
  missedMessageEmails = from.missedMessageEmails;
  mutedUsers = from.mutedUsers;
  outbox = from.outbox;
  passwordResets = from.passwordResets;
  presences = from.presences;
  pushDevices = from.pushDevices;
  reactions = from.reactions;
  readMarks = from.readMarks;
  realmEmoji = from.realmEmoji;
  realms = from.realms;
  recipientUsers = from.recipientUsers;
  recipients = from.recipients;
  savedSnippets = from.savedSnippets;
  scheduledMessages = from.scheduledMessages;
  serverSettings = from.serverSettings;
  sessions = from.sessions;
  subscriptionPeriods = from.subscriptionPeriods;
  subscriptions = from.subscriptions;
  userGroupMembers = from.userGroupMembers;
  userGroupSubgroups = from.userGroupSubgroups;
  userGroups = from.userGroups;
  userStatuses = from.userStatuses;
  userTopics = from.userTopics;
  users = from.users;
  webPushSubscriptions = from.webPushSubscriptions;
}
