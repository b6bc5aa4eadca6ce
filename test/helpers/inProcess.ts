import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOrganization } from "../../src/actions/organization";
import { addAccount } from "../../src/actions/users";
import { DATABASE_FILE, closeDatabase, openDatabase } from "../../src/db/client";
import { EXTERNAL_CHANGE_DELAY_MS } from "../../src/db/caches";
import { read, write, writeCollecting } from "../../src/db/transaction";
import type { Tx } from "../../src/db/types";
import { findUserByEmail, findUserById, setUserActive, type User } from "../../src/db/users";
import type { Emitted } from "../../src/db/types";
import type { AnyEvent } from "../../src/events/types";
import { Role } from "../../src/model/roles";
import type { TestServer } from "./server";
import { databaseUrlOf, inlineParameters } from "./testDatabase";

/**
 * Runs a transaction-level action as write() does, but hands back what it emitted instead of
 * publishing it, so a test can check exactly who hears of a change (and who does not) before
 * the event queues exist to ask over HTTP.
 */
export async function captureEvents<T>(change: (tx: Tx) => T | Promise<T>): Promise<{ result: T; emitted: Emitted[] }> {
  const { value, emitted } = await writeCollecting(change);
  return { result: value, emitted: emitted.map((addressed) => ({ ...addressed, userIds: [...addressed.userIds].sort((a, b) => a - b) })) };
}

export interface InProcessOrg {
  owner: User;
  admin: User;
  moderator: User;
  member: User;
  member2: User;
  guest: User;
  notificationBot: User;
  /** The user as the database has it now. */
  reload(user: User): Promise<User>;
  deactivate(user: User): Promise<void>;
  dispose(): void;
}

/** An organization in this process's own database: one person of every role, no server. */
export async function inProcessOrg(): Promise<InProcessOrg> {
  const dataDir = mkdtempSync(join(tmpdir(), "parley-inprocess-"));
  openDatabase(dataDir);
  const owner = await createOrganization({ name: "Test Org", url: "http://localhost:8080", ownerEmail: "owner@example.com", ownerPassword: "owner-password", ownerFullName: "Olivia Owner" });
  const person = async (name: string, role: Role) =>
    (await captureEvents((tx) => addAccount(tx, { email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, fullName: name, role, passwordHash: null }))).result;
  return {
    owner,
    admin: await person("Ada Admin", Role.ADMINISTRATOR),
    moderator: await person("Mona Moderator", Role.MODERATOR),
    member: await person("Mel Member", Role.MEMBER),
    member2: await person("Max Member", Role.MEMBER),
    guest: await person("Gus Guest", Role.GUEST),
    notificationBot: (await read((db) => findUserByEmail(db, "notification-bot@localhost")))!,
    reload: async (user) => (await read((db) => findUserById(db, user.id)))!,
    deactivate: (user) => write((tx) => setUserActive(tx, user.id, false)),
    dispose() {
      closeDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Changes a running test server's database behind its back, for states no endpoint can
 * produce yet (deactivated users, restricted settings). SQLite in WAL mode allows the second
 * writer; the server keeps no copy of these rows in memory.
 */
export function editServerDatabase(server: TestServer, statement: string | { sqlite: string; postgres: string }, ...params: Array<string | number>) {
  const postgresUrl = databaseUrlOf(server.dataDir);
  if (postgresUrl !== undefined) {
    const inlined = inlineParameters(typeof statement === "string" ? statement : statement.postgres, params);
    const result = Bun.spawnSync(["psql", postgresUrl, "-v", "ON_ERROR_STOP=1", "-qc", inlined], { stderr: "pipe", stdout: "ignore" });
    if (result.exitCode !== 0) throw new Error(`psql failed on ${inlined}: ${result.stderr.toString()}`);
    // The server looks for changes made elsewhere every PARLEY_CHANGE_CHECK_MS (jobs/cacheBackstop.ts).
    Bun.sleepSync(2 * Number(process.env.PARLEY_CHANGE_CHECK_MS ?? 1000) + 50);
    return;
  }
  if (typeof statement !== "string") statement = statement.sqlite;
  const sqlite = new Database(join(server.dataDir, DATABASE_FILE));
  try {
    sqlite.run("PRAGMA busy_timeout = 5000");
    sqlite.run(statement, params);
  } finally {
    sqlite.close();
  }
  // The server notices changes made by other connections within this delay.
  Bun.sleepSync(EXTERNAL_CHANGE_DELAY_MS + 20);
}
