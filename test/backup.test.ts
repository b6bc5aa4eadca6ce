import { Database } from "bun:sqlite";
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as tar from "tar";
import { ApiClient } from "./helpers/client";
import { OWNER, login, ok, type Person } from "./helpers/seed";
import { TestServer, parleyCommand, runParley, tempDataDir } from "./helpers/server";
import { basicAuth } from "./helpers/uploads";

// Issue 17, backups: `parley backup` while the server serves a stream of sends, `parley restore`
// into a fresh directory, and a server on it that has every message acknowledged before the
// backup began; then every way a restore must refuse, leaving nothing behind.

setDefaultTimeout(120_000);

const scratch = mkdtempSync(join(tmpdir(), "parley-backup-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let serial = 0;
const fresh = (name: string) => join(scratch, `${serial++}-${name}`);

async function startedOrg(env: Record<string, string> = {}): Promise<{ server: TestServer; owner: Person }> {
  const dataDir = tempDataDir();
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Backup Org", "--email", OWNER.email, "--password", OWNER.password]);
  if (init.exitCode !== 0) throw new Error(init.stderr);
  const server = await TestServer.start({ dataDir, env });
  const owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
  ok(await owner.api.post("/users/me/subscriptions", { subscriptions: [{ name: "backups" }] }));
  return { server, owner };
}

/** Runs a parley command without blocking this process, so requests go on meanwhile. */
async function parleyAsync(args: string[]) {
  const child = Bun.spawn([...parleyCommand(), ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { exitCode, stdout, stderr };
}

async function allMessageIds(person: Person): Promise<number[]> {
  const body = ok(await person.api.get("/messages", { anchor: "oldest", num_before: 0, num_after: 5000, narrow: [] }));
  return (body.messages as Array<{ id: number }>).map((message) => message.id);
}

/** A tiny archive with whatever entries a test wants, gzipped like a real one. */
async function craftArchive(file: string, entries: Record<string, string | Uint8Array>) {
  const dir = fresh("craft");
  for (const [name, content] of Object.entries(entries)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  await tar.c({ file, cwd: dir, gzip: true, portable: true }, Object.keys(entries));
}

describe("parley backup and restore", () => {
  let source: { server: TestServer; owner: Person };
  let archive = "";
  let uploadUrl = "";
  const uploadBytes = new Uint8Array(Array.from({ length: 50_000 }, (_, i) => (i * 7) % 251));
  const acked: Array<{ id: number; at: number }> = [];
  let backupStartedAt = 0;
  let backupEndedAt = 0;

  afterAll(async () => {
    await source?.server.dispose();
  });

  test("a backup made during a stream of sends restores every message acknowledged before it began", async () => {
    source = await startedOrg();
    const { owner, server } = source;
    const form = new FormData();
    form.append("file", new Blob([uploadBytes]), "diagram.bin");
    const upload = await fetch(new URL("/api/v1/user_uploads", server.url), { method: "POST", headers: basicAuth(owner), body: form });
    uploadUrl = ((await upload.json()) as { url: string }).url;
    ok(await owner.api.post("/messages", { type: "channel", to: "backups", topic: "files", content: `[diagram](${uploadUrl})` }));

    // Two writers keep sending until the backup has ended (and at least 40 were sent).
    let backupDone = false;
    const writer = async (name: string) => {
      for (let i = 0; !backupDone || i < 20; i++) {
        const body = ok(await owner.api.post("/messages", { type: "channel", to: "backups", topic: name, content: `${name} ${i}` }));
        acked.push({ id: body.id, at: Date.now() });
      }
    };
    const writers = Promise.all([writer("alpha"), writer("beta")]);
    await Bun.sleep(300);
    archive = join(scratch, "live.tar.gz");
    backupStartedAt = Date.now();
    const backup = await parleyAsync(["backup", "--data-dir", server.dataDir, "--out", archive]);
    backupEndedAt = Date.now();
    backupDone = true;
    await writers;
    expect(backup.stderr).toBe("");
    expect(backup.exitCode).toBe(0);
    expect(backup.stdout).toContain(`Backed up ${server.dataDir} to ${archive}`);
    // The sends really ran while the backup did.
    expect(acked.filter((send) => send.at > backupStartedAt && send.at < backupEndedAt).length).toBeGreaterThan(0);

    const listed: string[] = [];
    await tar.t({ file: archive, onReadEntry: (entry) => void listed.push(entry.path) });
    expect(listed[0]).toBe("parley-backup.json");
    expect(listed).toContain("parley.db");
    expect(listed.some((name) => /^files\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(name))).toBe(true);

    const restoredDir = fresh("restored");
    const restore = runParley(["restore", archive, "--data-dir", restoredDir]);
    expect(restore.stderr).toBe("");
    expect(restore.exitCode).toBe(0);
    expect(restore.stdout).toContain(`into ${restoredDir}`);
    expect(restore.stdout).toContain(`parley serve --data-dir ${restoredDir}`);

    const restored = await TestServer.start({ dataDir: restoredDir });
    try {
      const owner2 = await login(new ApiClient(restored.url), OWNER.email, OWNER.password);
      const ids = new Set(await allMessageIds(owner2));
      const before = acked.filter((send) => send.at < backupStartedAt).map((send) => send.id);
      expect(before.length).toBeGreaterThan(5);
      expect(before.filter((id) => !ids.has(id))).toEqual([]);
      // Nothing that was never acknowledged: every restored message is one the source stored.
      const sourceIds = new Set(await allMessageIds(owner));
      expect([...ids].filter((id) => !sourceIds.has(id))).toEqual([]);
      // The upload came along, byte for byte.
      const download = await fetch(new URL(uploadUrl, restored.url), { headers: basicAuth(owner2) });
      expect(download.status).toBe(200);
      expect(new Uint8Array(await download.arrayBuffer())).toEqual(uploadBytes);
      // And the restored server takes new messages.
      ok(await owner2.api.post("/messages", { type: "channel", to: "backups", topic: "after", content: "back in business" }));
    } finally {
      await restored.dispose();
    }
  });

  test("a stopped server's backup holds its saved event queues; --out DIR picks a dated name", async () => {
    const { server, owner } = await startedOrg();
    const queue = ok(await owner.api.post("/register", { event_types: ["message"] }));
    await server.stop();
    const dir = fresh("out");
    mkdirSync(dir);
    const backup = runParley(["backup", "--data-dir", server.dataDir, "--out", dir]);
    expect(backup.exitCode).toBe(0);
    const [name] = readdirSync(dir);
    expect(name).toMatch(/^parley-backup-\d{4}-\d{2}-\d{2}T\d{6}Z\.tar\.gz$/);
    // A path ending in "/" is a directory, made if need be.
    const made = runParley(["backup", "--data-dir", server.dataDir, "--out", `${dir}/new/`]);
    expect(made.exitCode).toBe(0);
    expect(readdirSync(join(dir, "new"))[0]).toMatch(/^parley-backup-.*\.tar\.gz$/);
    // An existing file is never overwritten.
    const again = runParley(["backup", "--data-dir", server.dataDir, "--out", join(dir, name!)]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain("already exists");

    const restoredDir = fresh("queues");
    expect(runParley(["restore", join(dir, name!), "--data-dir", restoredDir]).exitCode).toBe(0);
    expect(existsSync(join(restoredDir, "event_queues.json"))).toBe(true);
    const restored = await TestServer.start({ dataDir: restoredDir });
    try {
      const owner2 = await login(new ApiClient(restored.url), OWNER.email, OWNER.password);
      const sent = ok(await owner2.api.post("/messages", { type: "channel", to: "backups", topic: "q", content: "to the old queue" }));
      const events = ok(await owner2.api.get("/events", { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true }));
      expect(events.events.map((event: { message?: { id: number } }) => event.message?.id)).toContain(sent.id);
    } finally {
      await restored.dispose();
      await server.dispose();
    }
  });

  test("a backup clears what a dead backup left in the data dir, not what a running one is writing", () => {
    const dataDir = source.server.dataDir;
    const finished = Bun.spawnSync(["true"]);
    const dead = join(dataDir, `.parley-archive-${finished.pid}-leftover`);
    const alive = join(dataDir, `.parley-archive-${process.pid}-under-way`);
    mkdirSync(dead);
    mkdirSync(alive);
    try {
      expect(runParley(["backup", "--data-dir", dataDir, "--out", join(scratch, "leftovers.tar.gz")]).exitCode).toBe(0);
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(alive)).toBe(true);
    } finally {
      rmSync(alive, { recursive: true, force: true });
    }
  });

  describe("restore refuses, with the reason, and leaves nothing behind", () => {
    const refused = (file: string, expected: string | RegExp, target = fresh("target")) => {
      const result = runParley(["restore", file, "--data-dir", target]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(expected);
      expect(result.stderr).not.toContain("unexpected error");
      expect(existsSync(target) && readdirSync(target).length > 0).toBe(false);
      expect(readdirSync(join(target, "..")).filter((name) => name.includes(".restoring-"))).toEqual([]);
      return result;
    };

    test("a truncated archive", () => {
      const bytes = readFileSync(archive);
      const file = join(scratch, "truncated.tar.gz");
      writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      refused(file, /is damaged or not a complete archive/);
    });

    test("an archive with bytes flipped in the middle", () => {
      const bytes = Buffer.from(readFileSync(archive));
      for (let i = 0; i < 64; i++) bytes[Math.floor(bytes.length / 2) + i] ^= 0xff;
      const file = join(scratch, "flipped.tar.gz");
      writeFileSync(file, bytes);
      refused(file, /damaged/);
    });

    test("a file that is not a backup", () => {
      const file = join(scratch, "notes.txt");
      writeFileSync(file, "just some notes, not a backup at all");
      refused(file, /is not a Parley backup/);
    });

    test("a backup from a newer Parley, naming the version it needs", async () => {
      const unpacked = fresh("newer");
      mkdirSync(unpacked);
      await tar.x({ file: archive, cwd: unpacked });
      const manifest = JSON.parse(readFileSync(join(unpacked, "parley-backup.json"), "utf8"));
      manifest.migrations.push("9999_from_the_future");
      manifest.parleyVersion = "parley-9.1.0";
      writeFileSync(join(unpacked, "parley-backup.json"), JSON.stringify(manifest));
      const file = join(scratch, "newer.tar.gz");
      await tar.c({ file, cwd: unpacked, gzip: true }, readdirSync(unpacked));
      refused(file, /written by parley-9\.1\.0.*Run parley-9\.1\.0 or newer/);
    });

    test("a database copy from a newer Parley", () => {
      const unpacked = fresh("newerdb");
      mkdirSync(unpacked);
      const database = join(unpacked, "parley.db");
      const dump = runParley(["restore", archive, "--data-dir", join(unpacked, "ok")]);
      expect(dump.exitCode).toBe(0);
      cpSync(join(unpacked, "ok", "parley.db"), database);
      const sqlite = new Database(database);
      sqlite.run("INSERT INTO parley_migrations (tag, applied_at, parley_version) VALUES ('9999_from_the_future', 0, 'parley-9.2.0')");
      sqlite.run("PRAGMA journal_mode = DELETE");
      sqlite.close();
      refused(database, /written by parley-9\.2\.0/);
    });

    test("a damaged database inside a well-formed archive", async () => {
      const unpacked = fresh("damaged");
      mkdirSync(unpacked);
      await tar.x({ file: archive, cwd: unpacked });
      const database = join(unpacked, "parley.db");
      const bytes = Buffer.from(readFileSync(database));
      // Garbage over pages in the middle of the file (past the header and schema).
      bytes.fill(0x5a, 8 * 4096, 14 * 4096);
      writeFileSync(database, bytes);
      const file = join(scratch, "damaged-db.tar.gz");
      await tar.c({ file, cwd: unpacked, gzip: true }, readdirSync(unpacked));
      refused(file, /(is damaged|cannot be read)/);
    });

    test("an uploaded file that does not match its hash", async () => {
      const unpacked = fresh("badfile");
      mkdirSync(unpacked);
      await tar.x({ file: archive, cwd: unpacked });
      const [prefix] = readdirSync(join(unpacked, "files"));
      const [name] = readdirSync(join(unpacked, "files", prefix!));
      writeFileSync(join(unpacked, "files", prefix!, name!), "not what was uploaded");
      const file = join(scratch, "bad-file.tar.gz");
      await tar.c({ file, cwd: unpacked, gzip: true }, readdirSync(unpacked));
      refused(file, /files\/.* is damaged/);
    });

    test("an archive with entries a backup never has", async () => {
      const file = join(scratch, "stranger.tar.gz");
      await craftArchive(file, { "parley-backup.json": "{}", "etc/cron.d/evil": "* * * * * root true" });
      refused(file, /holds etc/);
    });

    test("an archive without a manifest", async () => {
      const file = join(scratch, "nomanifest.tar.gz");
      await craftArchive(file, { "parley.db": "hello" });
      refused(file, /has no parley-backup\.json/);
    });

    test("a target that holds data already, which is left untouched", () => {
      const target = fresh("busy");
      mkdirSync(target);
      writeFileSync(join(target, "keep.txt"), "mine");
      const result = runParley(["restore", archive, "--data-dir", target]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain("is not empty");
      expect(readdirSync(target)).toEqual(["keep.txt"]);
    });

    test("usage mistakes are exit 2", () => {
      expect(runParley(["restore", archive]).exitCode).toBe(2);
      expect(runParley(["restore", "--data-dir", fresh("x")]).exitCode).toBe(2);
      expect(runParley(["backup", "--data-dir", fresh("x")]).exitCode).toBe(2);
      const missing = runParley(["backup", "--data-dir", fresh("nothing"), "--out", join(scratch, "n.tar.gz")]);
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toContain("There is no database to back up");
    });
  });

  test("scheduled backups run on PARLEY_BACKUP_SCHEDULE and keep PARLEY_BACKUP_KEEP", async () => {
    const backupDir = fresh("scheduled");
    mkdirSync(backupDir);
    const { server, owner } = await startedOrg({ PARLEY_BACKUP_SCHEDULE: "*/2 * * * * *", PARLEY_BACKUP_KEEP: "2", PARLEY_BACKUP_DIR: backupDir });
    try {
      const written = () => (server.output.match(/Scheduled backup written/g) ?? []).length;
      const before = ok(await owner.api.get("/server/status"));
      // On a loaded machine the first backup (2 s after start) may be done by now. Its log line
      // comes through a pipe, and may come after the status's answer, so the log cannot tell
      // whether the status may name one: a backup the status names is a file that is there.
      expect(before.backups.last_failure).toBeNull();
      if (before.backups.last_success !== null) expect(existsSync(before.backups.last_success.file)).toBe(true);
      const deadline = Date.now() + 30_000;
      while (written() < 3 && Date.now() < deadline) await Bun.sleep(200);
      expect(written()).toBeGreaterThanOrEqual(3);
      const archives = readdirSync(backupDir).filter((name) => name.endsWith(".tar.gz"));
      expect(archives.length).toBe(2);
      // Each one restores.
      expect(runParley(["restore", join(backupDir, archives.sort().at(-1)!), "--data-dir", fresh("from-scheduled")]).exitCode).toBe(0);
      // Admins can see that backups are being made: the console's status and /metrics.
      const status = ok(await owner.api.get("/server/status"));
      expect(status.backups.last_failure).toBeNull();
      // Listed again after the status: backups go on every 2 s, and on a loaded machine the
      // restore above can take longer than that, so the newest may be newer than the first listing.
      const listedNow = readdirSync(backupDir).filter((name) => name.endsWith(".tar.gz"));
      expect(listedNow.map((name) => join(backupDir, name))).toContain(status.backups.last_success.file);
      expect(status.backups.last_success.size_bytes).toBeGreaterThan(1000);
      const metrics = await (await fetch(new URL("/metrics", server.url))).text();
      const last = Number(/^parley_backup_last_success_timestamp_seconds (\d+)$/m.exec(metrics)![1]);
      expect(Math.abs(last - Date.now() / 1000)).toBeLessThan(30);
    } finally {
      await server.dispose();
    }
  });

  test("a scheduled backup that fails is logged and shown to admins, and the server goes on", async () => {
    const notADirectory = join(scratch, "a-file");
    writeFileSync(notADirectory, "in the way");
    const { server, owner } = await startedOrg({ PARLEY_BACKUP_SCHEDULE: "* * * * * *", PARLEY_BACKUP_DIR: notADirectory });
    try {
      const deadline = Date.now() + 20_000;
      while (!server.output.includes("Scheduled backup failed") && Date.now() < deadline) await Bun.sleep(200);
      expect(server.output).toContain(`Scheduled backup failed: cannot use the backup directory ${notADirectory}`);
      const status = ok(await owner.api.get("/server/status"));
      expect(status.backups.last_success).toBeNull();
      expect(status.backups.last_failure.error).toContain("cannot use the backup directory");
      const metrics = await (await fetch(new URL("/metrics", server.url))).text();
      expect(metrics).toMatch(/^parley_backup_last_success_timestamp_seconds 0$/m);
      expect(metrics).toMatch(/^parley_backup_last_failure_timestamp_seconds [1-9]\d+$/m);
      ok(await owner.api.post("/messages", { type: "channel", to: "backups", topic: "still", content: "serving" }));
    } finally {
      await server.dispose();
    }
  });

  test("a bad PARLEY_BACKUP_SCHEDULE stops the start with a clear message", () => {
    const result = runParley(["serve", "--init", "--data-dir", fresh("badcron"), "--port", "0"], { env: { PARLEY_BACKUP_SCHEDULE: "every day" } });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("PARLEY_BACKUP_SCHEDULE must be a cron pattern");
  });
});
