import { expect } from "bun:test";
import { mkdirSync } from "node:fs";
import { ensureDatabaseFor } from "./testDatabase";
import { ApiClient } from "./client";
import { copyTemplate } from "./dataDirTemplate";
import { TestServer, runParley, tempDataDir, type ServerOptions } from "./server";

export const OWNER = { email: "owner@example.com", password: "owner-password", fullName: "Olivia Owner" };
export const ORG_NAME = "Test Org";

export interface Person {
  id: number;
  email: string;
  password: string;
  apiKey: string;
  api: ApiClient;
}

export interface Org {
  server: TestServer;
  /** Unauthenticated client. */
  anon: ApiClient;
  owner: Person;
  admin: Person;
  moderator: Person;
  member: Person;
  member2: Person;
  guest: Person;
  /** A generic bot owned by `member`. */
  bot: Person;
}

/** Expects a success envelope and returns the body. */
export function ok<T extends Record<string, any>>(response: { status: number; body: T }): T {
  if (response.status !== 200 || (response.body as any).result !== "success") {
    throw new Error(`Expected success, got ${response.status}: ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/** Expects an error envelope with this code and status. */
export function expectError(response: { status: number; body: any }, code: string, status = 400) {
  expect(response.body).toMatchObject({ result: "error", code });
  expect(typeof response.body.msg).toBe("string");
  expect(response.body.msg.length).toBeGreaterThan(0);
  expect(response.status).toBe(status);
}

export async function login(anon: ApiClient, email: string, password: string): Promise<Person> {
  const body = ok(await anon.post("/fetch_api_key", { username: email, password }));
  return { id: body.user_id, email: body.email, password, apiKey: body.api_key, api: anon.as(body.email, body.api_key) };
}

async function initialize(dataDir: string, binary?: string) {
  mkdirSync(dataDir, { recursive: true });
  const env = await ensureDatabaseFor(dataDir);
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", ORG_NAME, "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName], { binary, env });
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
}

/**
 * `parley init` in a fresh data dir, then the server started on it. The init is run once and
 * its database copied (dataDirTemplate.ts), except for a given binary, which makes its own.
 */
export async function startInitializedServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  if (options.binary) await initialize(dataDir, options.binary);
  else await copyTemplate("initialized", initialize, dataDir);
  return TestServer.start({ ...options, dataDir });
}

export async function createPerson(owner: Person, anon: ApiClient, name: string, role?: number): Promise<Person> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`;
  const password = `${name}-password`;
  ok(await owner.api.post("/users", { email, password, full_name: name }));
  const person = await login(anon, email, password);
  if (role !== undefined && role !== 400) ok(await owner.api.patch(`/users/${person.id}`, { role }));
  return person;
}

type Credentials = Omit<Person, "api">;
type SeededCredentials = Record<Exclude<keyof Org, "server" | "anon">, Credentials>;

/** The seeded data dir's people, signed in as seedPeople signs them in, without the clients. */
async function seedTemplate(dataDir: string): Promise<SeededCredentials> {
  const server = await startInitializedServer({ dataDir });
  try {
    const { server: _server, anon: _anon, ...people } = await seedPeople(server);
    return Object.fromEntries(Object.entries(people).map(([role, { api: _api, ...credentials }]) => [role, credentials])) as SeededCredentials;
  } finally {
    await server.stop();
  }
}

/**
 * An organization with one person of every role and a bot, all reachable over HTTP. The people
 * are made once, by seedPeople on a server of their own, and each organization is a copy of
 * that database (dataDirTemplate.ts), with the same people, passwords and API keys; a given
 * binary seeds its own.
 */
export async function seedOrg(options: ServerOptions = {}): Promise<Org> {
  if (options.binary) return seedPeople(await startInitializedServer(options));
  const dataDir = options.dataDir ?? tempDataDir();
  const credentials = await copyTemplate("seeded", seedTemplate, dataDir);
  const server = await TestServer.start({ ...options, dataDir });
  const anon = new ApiClient(server.url);
  const person = ({ id, email, password, apiKey }: Credentials): Person => ({ id, email, password, apiKey, api: anon.as(email, apiKey) });
  const { owner, admin, moderator, member, member2, guest, bot } = credentials;
  return { server, anon, owner: person(owner), admin: person(admin), moderator: person(moderator), member: person(member), member2: person(member2), guest: person(guest), bot: person(bot) };
}

/** The people of seedOrg, added to a running server whose owner is OWNER (a benchmark's prepared database, say). */
export async function seedPeople(server: TestServer): Promise<Org> {
  const anon = new ApiClient(server.url);
  const owner = await login(anon, OWNER.email, OWNER.password);
  const [admin, moderator, member, member2, guest] = await Promise.all([
    createPerson(owner, anon, "Ada Admin", 200),
    createPerson(owner, anon, "Mona Moderator", 300),
    createPerson(owner, anon, "Mel Member"),
    createPerson(owner, anon, "Max Member"),
    createPerson(owner, anon, "Gus Guest", 600),
  ]);
  const botBody = ok(await member.api.post("/bots", { full_name: "Helper Bot", short_name: "helper", bot_type: 1 }));
  const botEmail = botBody.email ?? `helper-bot@127.0.0.1`;
  const bot: Person = { id: botBody.user_id, email: botEmail, password: "", apiKey: botBody.api_key, api: anon.as(botEmail, botBody.api_key) };
  return { server, anon, owner, admin, moderator, member, member2, guest, bot };
}
