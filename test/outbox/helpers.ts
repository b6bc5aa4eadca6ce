import { expect } from "bun:test";
import { ApiClient } from "../helpers/client";
import { OWNER, createPerson, login, ok, startInitializedServer, type Person } from "../helpers/seed";
import { TestServer } from "../helpers/server";
import { ON_POSTGRES } from "../helpers/testDatabase";

/** Outbox timing for tests: retries a second apart (the finest the outbox keeps), swept often. */
export const FAST_OUTBOX = {
  PARLEY_OUTBOX_RETRY_BASE_SECONDS: "1",
  PARLEY_OUTBOX_RETRY_MAX_SECONDS: "1",
  PARLEY_OUTBOX_SWEEP_SECONDS: "0.2",
};

export interface MailOrg {
  server: TestServer;
  anon: ApiClient;
  owner: Person;
}

/** An organization with just its owner: enough to deactivate people, lighter than seedOrg. */
export async function mailOrg(env: Record<string, string>, dataDir?: string): Promise<MailOrg> {
  const server = dataDir ? await TestServer.start({ dataDir, env }) : await startInitializedServer({ env });
  const anon = new ApiClient(server.url);
  return { server, anon, owner: await login(anon, OWNER.email, OWNER.password) };
}

let people = 0;

/** Creates someone and deactivates them asking for the notification e-mail; returns their address. */
export async function deactivateWithMail(org: MailOrg, comment = "Thanks for everything"): Promise<string> {
  const person = await createPerson(org.owner, org.anon, `Leaver ${people++} ${Math.random().toString(36).slice(2, 8)}`);
  ok(await org.owner.api.delete(`/users/${person.id}`, { deactivation_notification_comment: comment }));
  return person.email;
}

/** Waits until the server's log matches, or fails with the log. */
export async function waitForLog(server: TestServer, pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = server.output.match(pattern);
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`The log never matched ${pattern}:\n${server.output}`);
    await Bun.sleep(50);
  }
}

/** How many times the log matches. */
export const countInLog = (server: TestServer, pattern: RegExp) => (server.output.match(new RegExp(pattern, "g")) ?? []).length;

/**
 * What the outbox says when it starts (how e-mail goes out). On SQLite it is said before the
 * server says it listens. On PostgreSQL the outbox runs on the process holding the cluster
 * leader's advisory lock (jobs/leader.ts), which a process takes just after it starts
 * listening: said a moment later.
 */
export async function expectSaidAtStart(org: MailOrg, pattern: RegExp) {
  if (ON_POSTGRES) await waitForLog(org.server, pattern);
  else expect(org.server.output).toMatch(pattern);
}
