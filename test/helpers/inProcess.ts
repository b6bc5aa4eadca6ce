import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createOrganization } from "../../src/actions/organization";
import { addAccount } from "../../src/actions/users";
import { DATABASE_FILE, closeDatabase, database, openDatabase } from "../../src/db/client";
import { EXTERNAL_CHANGE_DELAY_MS } from "../../src/db/caches";
import { transact } from "../../src/db/transaction";
import type { Tx } from "../../src/db/types";
import { findUserByEmail, findUserById, users, type User } from "../../src/db/users";
import type { Emitted } from "../../src/db/types";
import type { AnyEvent } from "../../src/events/types";
import { Role } from "../../src/model/roles";
import type { TestServer } from "./server";

/**
 * Runs a transaction-level action as write() does, but hands back what it emitted instead of
 * publishing it, so a test can check exactly who hears of a change (and who does not) before
 * the event queues exist to ask over HTTP.
 */
export function captureEvents<T>(change: (tx: Tx) => T): { result: T; emitted: Emitted[] } {
  const emitted: Emitted[] = [];
  const result = transact(change, (addressed) => emitted.push({ ...addressed, userIds: [...addressed.userIds].sort((a, b) => a - b) }));
  return { result, emitted };
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
  reload(user: User): User;
  deactivate(user: User): void;
  dispose(): void;
}

/** An organization in this process's own database: one person of every role, no server. */
export async function inProcessOrg(): Promise<InProcessOrg> {
  const dataDir = mkdtempSync(join(tmpdir(), "parley-inprocess-"));
  openDatabase(dataDir);
  const owner = await createOrganization({ name: "Test Org", url: "http://localhost:8080", ownerEmail: "owner@example.com", ownerPassword: "owner-password", ownerFullName: "Olivia Owner" });
  const person = (name: string, role: Role) =>
    captureEvents((tx) => addAccount(tx, { email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, fullName: name, role, passwordHash: null })).result;
  return {
    owner,
    admin: person("Ada Admin", Role.ADMINISTRATOR),
    moderator: person("Mona Moderator", Role.MODERATOR),
    member: person("Mel Member", Role.MEMBER),
    member2: person("Max Member", Role.MEMBER),
    guest: person("Gus Guest", Role.GUEST),
    notificationBot: findUserByEmail(database(), "notification-bot@localhost")!,
    reload: (user) => findUserById(database(), user.id)!,
    deactivate: (user) => database().update(users).set({ isActive: false }).where(eq(users.id, user.id)).run(),
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
export function editServerDatabase(server: TestServer, statement: string, ...params: Array<string | number>) {
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
