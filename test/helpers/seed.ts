import { expect } from "bun:test";
import { ApiClient } from "./client";
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

/** `parley init` in a fresh data dir, then the server started on it. */
export async function startInitializedServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDataDir();
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", ORG_NAME, "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName], { binary: options.binary });
  if (init.exitCode !== 0) throw new Error(`parley init failed: ${init.stderr}`);
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

/** An organization with one person of every role and a bot, all reachable over HTTP. */
export async function seedOrg(options: ServerOptions = {}): Promise<Org> {
  return seedPeople(await startInitializedServer(options));
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
