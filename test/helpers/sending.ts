import type { Params } from "./client";
import { queryServer } from "./channels";
import { editServerDatabase } from "./inProcess";
import { type Org, type Person, ok } from "./seed";
import type { TestServer } from "./server";
import { databaseUrlOf } from "./testDatabase";

/** Helpers for tests of sending messages: sending, and reading what the server stored. */

export const channelMessage = (to: string | number, topic: string, content: string, extra: Params = {}): Params => ({ type: "channel", to: String(to), topic, content, ...extra });
export const directMessage = (to: unknown, content: string, extra: Params = {}): Params => ({ type: "direct", to, content, ...extra });

export const send = (person: Person, params: Params) => person.api.post("/messages", params);

/** Sends and expects success; returns the response body (id, maybe automatic_new_visibility_policy). */
export async function sendOk(person: Person, params: Params): Promise<{ id: number; automatic_new_visibility_policy?: number; [key: string]: unknown }> {
  return ok(await send(person, params)) as never;
}

export interface StoredMessage {
  id: number;
  recipient_id: number;
  channel_id: number | null;
  topic: string;
  topic_key: string;
  sender_id: number;
  content: string;
  rendered_content: string;
  client: string;
  is_me_message: number;
}

export function storedMessage(server: TestServer, id: number): StoredMessage | undefined {
  return queryServer<StoredMessage>(server, "SELECT * FROM messages WHERE id = ?", id)[0];
}

export const messageCount = (server: TestServer) => queryServer<{ n: number }>(server, "SELECT count(*) AS n FROM messages")[0].n;

/** Stored flag bits of one message, by user. */
export function storedFlags(server: TestServer, messageId: number): Map<number, number> {
  const rows = queryServer<{ user_id: number; flags: number }>(server, "SELECT user_id, flags FROM message_flags WHERE message_id = ?", messageId);
  return new Map(rows.map((row) => [row.user_id, row.flags]));
}

/** Members of a direct-message recipient, sorted. */
export function recipientMembers(server: TestServer, recipientId: number): number[] {
  return queryServer<{ user_id: number }>(server, "SELECT user_id FROM recipient_users WHERE recipient_id = ? ORDER BY user_id", recipientId).map((row) => row.user_id);
}

let created = 0;
/**
 * Creates members without the cost of logging each in: the owner creates the account, the
 * API key is read from the database.
 */
export async function createMembers(org: Org, count: number): Promise<Person[]> {
  const people: Person[] = [];
  for (let i = 0; i < count; i++) {
    const email = `extra${++created}-${Math.random().toString(36).slice(2, 6)}@example.com`;
    const { user_id } = ok(await org.owner.api.post("/users", { email, password: "extra-password", full_name: `Extra Person ${created}` }));
    const [{ api_key }] = queryServer<{ api_key: string }>(org.server, "SELECT api_key FROM users WHERE id = ?", user_id);
    people.push({ id: user_id, email, password: "extra-password", apiKey: api_key, api: org.anon.as(email, api_key) });
  }
  return people;
}

/** Sets one of a user's settings straight in the database. */
export function setUserSetting(server: TestServer, userId: number, name: string, value: unknown) {
  if (databaseUrlOf(server.dataDir)) editServerDatabase(server, "UPDATE users SET settings = jsonb_set(settings, ?::text[], ?::jsonb) WHERE id = ?", `{${name}}`, JSON.stringify(value), userId);
  else editServerDatabase(server, "UPDATE users SET settings = json_set(settings, ?, json(?)) WHERE id = ?", `$.${name}`, JSON.stringify(value), userId);
}
