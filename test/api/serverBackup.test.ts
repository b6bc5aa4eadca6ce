import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATABASE_FILE } from "../../src/db/client";
import { postFrom } from "../helpers/fromAddress";
import { expectError, ok, seedOrg, type Org, type Person } from "../helpers/seed";
import { directMessage, sendOk } from "../helpers/sending";
import { ON_POSTGRES } from "../helpers/testDatabase";

/** GET /server/backup (a Parley addition): a consistent copy of the live database, for owners. */

let org: Org;
let scratch: string;

beforeAll(async () => {
  org = await seedOrg();
  scratch = mkdtempSync(join(tmpdir(), "parley-backups-"));
});
afterAll(async () => {
  await org.server.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const basic = (person: Person) => ({ authorization: `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}` });
const backupUrl = () => `${org.server.url}/api/v1/server/backup`;
const requestBackup = (person: Person, init: RequestInit = {}) => fetch(backupUrl(), { ...init, headers: { ...basic(person), ...(init.headers as Record<string, string>) } });

let saved = 0;
/** Keeps a downloaded backup as a file and opens it as SQLite would. */
async function openBackup(response: Response): Promise<Database> {
  const path = join(scratch, `backup-${++saved}.sqlite3`);
  writeFileSync(path, new Uint8Array(await response.arrayBuffer()));
  return new Database(path, { readonly: true });
}

const integrity = (db: Database) => db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").all().map((row) => row.integrity_check);
/** Backup files in the data dir, or still held open by the server after being unlinked. */
/**
 * leftovers() once the server has had its moment to close a finished download's file: the
 * client can hold the last byte before the server's stream has ended. At most 2 s.
 */
async function leftoversOnceClosed(): Promise<string[]> {
  const deadline = Date.now() + 2_000;
  while (leftovers().length > 0 && Date.now() < deadline) await Bun.sleep(20);
  return leftovers();
}

function leftovers(): string[] {
  const fds = `/proc/${org.server.pid}/fd`;
  const held = readdirSync(fds).flatMap((fd) => {
    try {
      return [readlinkSync(join(fds, fd))];
    } catch {
      return [];
    }
  });
  return [...readdirSync(org.server.dataDir), ...held].filter((name) => name.includes("backup"));
}

let bulkAdded = false;
/**
 * 48 MB in a table of its own: a copy that takes long enough for sends to land during it, and a
 * download larger than the connection's buffers, so the server waits for a client that stops reading.
 */
function addBulk() {
  if (bulkAdded) return;
  bulkAdded = true;
  const db = new Database(join(org.server.dataDir, DATABASE_FILE));
  db.run("PRAGMA busy_timeout = 5000");
  db.run("CREATE TABLE test_filler (bytes BLOB)");
  const insert = db.prepare("INSERT INTO test_filler (bytes) VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < 48; i++) insert.run(new Uint8Array(1 << 20).fill(i));
  })();
  db.close();
}

async function json(response: Response) {
  return { status: response.status, body: await response.json() };
}

// On PostgreSQL (the suite's second run) the backup is pg_dump's, and the endpoint says so.
describe.if(ON_POSTGRES)("GET /server/backup on PostgreSQL", () => {
  test("tells an owner to back up with pg_dump, and still refuses everyone below owner", async () => {
    const answer = await org.owner.api.get("/server/backup");
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toContain("pg_dump");
    expectError(await org.admin.api.get("/server/backup"), "UNAUTHORIZED_PRINCIPAL", 400);
  });
});

describe.skipIf(ON_POSTGRES)("GET /server/backup", () => {
  test("gives an owner the database as a SQLite file that passes an integrity check and holds what was sent", async () => {
    const sent = await sendOk(org.member, directMessage([org.member2.id], "in the backup"));
    const response = await requestBackup(org.owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.sqlite3");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="parley-backup-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite3"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const db = await openBackup(response);
    expect(integrity(db)).toEqual(["ok"]);
    expect(db.query("SELECT content FROM messages WHERE id = ?").get(sent.id)).toEqual({ content: "in the backup" });
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM users WHERE is_bot = 0").get()!.n).toBe(6);
    // A standalone file: no write-ahead log beside it is needed to read it.
    expect(db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode).not.toBe("wal");
    db.close();
    expect(leftovers()).toEqual([]);
  });

  test("refuses administrators and everyone else below owner, with their API key or a browser session", async () => {
    const refusedAdmin = await json(await requestBackup(org.admin));
    expectError(refusedAdmin, "UNAUTHORIZED_PRINCIPAL", 400);
    expect(refusedAdmin.body.msg).toBe("Must be an organization owner");
    for (const person of [org.moderator, org.member, org.guest, org.bot]) expectError(await json(await requestBackup(person)), "UNAUTHORIZED_PRINCIPAL", 400);
    let address = 40;
    for (const person of [org.admin, org.member]) {
      const signIn = await postFrom(`127.0.0.${address++}`, `${org.server.url}/login`, { username: person.email, password: person.password });
      const cookies = (signIn.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]);
      const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
      const forged = await json(await fetch(backupUrl(), { headers: { cookie: cookies.join("; "), "x-csrf-token": csrf } }));
      expectError(forged, "UNAUTHORIZED_PRINCIPAL", 400);
    }
    expectError(await json(await fetch(backupUrl())), "UNAUTHORIZED", 401);
    expect(leftovers()).toEqual([]);
  });

  test("makes one backup at a time: a request during another is refused, and the next one after it works", async () => {
    // Large enough that the first download is still under way (unread) when the others arrive.
    addBulk();
    const responses = await Promise.all([requestBackup(org.owner), requestBackup(org.owner), requestBackup(org.owner)]);
    const made = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status !== 200);
    expect(made.length).toBe(1);
    for (const response of refused) {
      const body = await json(response);
      expectError(body, "BAD_REQUEST", 400);
      expect(body.body.msg).toContain("already being made");
    }
    const db = await openBackup(made[0]);
    expect(integrity(db)).toEqual(["ok"]);
    db.close();
    const next = await requestBackup(org.owner);
    expect(next.status).toBe(200);
    await next.arrayBuffer();
    expect(await leftoversOnceClosed()).toEqual([]);
  });

  test("a download the client abandons ends the backup: its file is gone and the next one is made", async () => {
    addBulk();
    const abandon = new AbortController();
    const response = await requestBackup(org.owner, { signal: abandon.signal });
    expect(response.status).toBe(200);
    // Stalled: more than the connection holds, and nobody reading. The copy is open, and unlinked.
    expect(leftovers().length).toBe(1);
    expect(leftovers()[0]).toEndWith("(deleted)");
    expectError(await json(await requestBackup(org.owner)), "BAD_REQUEST", 400);
    abandon.abort();
    const deadline = Date.now() + 10_000;
    while (leftovers().length > 0) {
      if (Date.now() > deadline) throw new Error("the abandoned backup was never released");
      await Bun.sleep(20);
    }
    const next = await requestBackup(org.owner);
    expect(next.status).toBe(200);
    await next.arrayBuffer();
    expect(await leftoversOnceClosed()).toEqual([]);
  });

  test("removes what a backup interrupted by a crash left in the data dir", async () => {
    const stale = join(org.server.dataDir, ".parley-backup-left-by-a-crash.sqlite3");
    writeFileSync(stale, "half a copy");
    const response = await requestBackup(org.owner);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(leftovers()).toEqual([]);
  });

  test("is consistent while messages keep being sent, and holds every message acknowledged before it was asked for", async () => {
    addBulk();
    const acknowledged: Array<{ id: number; at: number }> = [];
    let sending = true;
    const senders = [org.member, org.member2, org.admin].map(async (person, n) => {
      for (let i = 0; sending; i++) {
        const { id } = await sendOk(person, directMessage([org.guest.id], `sender ${n} message ${i}`));
        acknowledged.push({ id, at: performance.now() });
      }
    });
    while (acknowledged.length < 20) await Bun.sleep(5);

    const askedAt = performance.now();
    const response = await requestBackup(org.owner);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const receivedAt = performance.now();
    sending = false;
    await Promise.all(senders);

    const path = join(scratch, "during-sends.sqlite3");
    writeFileSync(path, bytes);
    const db = new Database(path, { readonly: true });
    expect(integrity(db)).toEqual(["ok"]);
    const inBackup = new Set(db.query<{ id: number }, []>("SELECT id FROM messages").all().map((row) => row.id));
    db.close();

    const before = acknowledged.filter((entry) => entry.at < askedAt);
    expect(before.length).toBeGreaterThanOrEqual(20);
    for (const { id } of before) expect(inBackup.has(id)).toBe(true);
    // One moment's state: every message up to the newest it holds, none missing in between.
    const newest = Math.max(...[...inBackup].filter((id) => acknowledged.some((entry) => entry.id === id)));
    for (const { id } of acknowledged) if (id <= newest) expect(inBackup.has(id)).toBe(true);
    // The server kept serving while it copied.
    expect(acknowledged.filter((entry) => entry.at > askedAt && entry.at < receivedAt).length).toBeGreaterThan(0);
    expect(leftovers()).toEqual([]);
  });
});
