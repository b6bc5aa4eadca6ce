import { Database } from "bun:sqlite";
import { join } from "node:path";
import { expect } from "bun:test";
import { DATABASE_FILE } from "../../src/db/client";
import type { Params } from "./client";
import { editServerDatabase } from "./inProcess";
import { type Org, type Person, ok } from "./seed";
import type { TestServer } from "./server";
import { databaseUrlOf, inlineParameters, psqlSelectCommand, rowsAsSqliteGives } from "./testDatabase";

/** Channel test helpers: creating channels over HTTP and reading what the server stored. */

let counter = 0;
/** A channel name no other test in the file uses. */
export const uniqueName = (prefix = "channel") => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

/** Subscribes `person` (or the principals) to channels, creating missing ones; expects success. */
export async function subscribe(person: Person, names: string[], params: Params = {}) {
  return ok(await person.api.post("/users/me/subscriptions", { subscriptions: names.map((name) => ({ name })), ...params }));
}

function queryPostgres<T>(url: string, statement: string, params: Array<string | number>): T[] {
  const inlined = inlineParameters(statement, params);
  const result = Bun.spawnSync(psqlSelectCommand(url, inlined), { stderr: "pipe", stdout: "pipe" });
  if (result.exitCode !== 0) throw new Error(`psql failed on ${inlined}: ${result.stderr.toString()}`);
  return rowsAsSqliteGives<T>(result.stdout.toString());
}

/** Creates a channel as `creator` (who is subscribed unless principals say otherwise) and returns its ID. */
export async function createChannel(org: Org, creator: Person, params: Params = {}, name = uniqueName()): Promise<number> {
  await subscribe(creator, [name], params);
  return channelId(org.server, name);
}

/**
 * Reads the server's database directly (read-only), for what no endpoint shows. On PostgreSQL
 * (testDatabase.ts) the rows come back as SQLite gives them: booleans as 1 or 0, jsonb as JSON text.
 */
export function queryServer<T>(server: TestServer, statement: string | { sqlite: string; postgres: string }, ...params: Array<string | number>): T[] {
  const postgresUrl = databaseUrlOf(server.dataDir);
  if (postgresUrl !== undefined) return queryPostgres<T>(postgresUrl, typeof statement === "string" ? statement : statement.postgres, params);
  if (typeof statement !== "string") statement = statement.sqlite;
  const sqlite = new Database(join(server.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return sqlite.query(statement).all(...params) as T[];
  } finally {
    sqlite.close();
  }
}

export function channelId(server: TestServer, name: string): number {
  const rows = queryServer<{ id: number }>(server, "SELECT id FROM channels WHERE name_key = ?", name.toLowerCase());
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

export const channelCount = (server: TestServer) => queryServer<{ n: number }>(server, "SELECT count(*) AS n FROM channels")[0].n;
export const subscriptionCount = (server: TestServer) => queryServer<{ n: number }>(server, "SELECT count(*) AS n FROM subscriptions WHERE active")[0].n;

/** Runs a refused attempt and checks it created no channel and changed no subscription count. */
export async function expectNoChannelChange(server: TestServer, attempt: () => Promise<void>) {
  const [channels, subs] = [channelCount(server), subscriptionCount(server)];
  await attempt();
  expect(channelCount(server)).toBe(channels);
  expect(subscriptionCount(server)).toBe(subs);
}

export function systemGroupId(server: TestServer, name: string): number {
  return queryServer<{ id: number }>(server, "SELECT id FROM user_groups WHERE name = ? AND is_system_group", name)[0].id;
}

/** Sets one organization setting (stored as JSON in the realm row). */
export function setRealmSetting(server: TestServer, name: string, value: unknown) {
  if (databaseUrlOf(server.dataDir)) editServerDatabase(server, "UPDATE realms SET settings = jsonb_set(settings, ?::text[], ?::jsonb)", `{${name}}`, JSON.stringify(value));
  else editServerDatabase(server, "UPDATE realms SET settings = json_set(settings, ?, json(?))", `$.${name}`, JSON.stringify(value));
}

/** Creates a named user group with these direct members, straight in the database. */
export function createUserGroup(server: TestServer, name: string, memberIds: number[], options: { deactivated?: boolean } = {}): number {
  editServerDatabase(server, "INSERT INTO user_groups (name, description, is_system_group, deactivated) VALUES (?, '', false, CAST(? AS boolean))", name, options.deactivated ? 1 : 0);
  const id = queryServer<{ id: number }>(server, "SELECT id FROM user_groups WHERE name = ?", name)[0].id;
  for (const userId of memberIds) editServerDatabase(server, "INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)", id, userId);
  return id;
}

/** Deactivates a person through the API, as the organization's owner. */
export async function deactivateUser(org: Org, userId: number) {
  ok(await org.owner.api.delete(`/users/${userId}`));
}

/** A stream as GET /streams/{id} shows it to `person`. */
export async function getChannel(person: Person, id: number) {
  return ok(await person.api.get(`/streams/${id}`)).stream;
}

/** The subscription object of `person` for channel `id`, or undefined. */
export async function subscriptionOf(person: Person, id: number, params: Params = {}) {
  const { subscriptions } = ok(await person.api.get("/users/me/subscriptions", params));
  return (subscriptions as Array<{ stream_id: number }>).find((sub) => sub.stream_id === id) as Record<string, any> | undefined;
}

export const isSubscribed = async (person: Person, id: number) => (await subscriptionOf(person, id)) !== undefined;
