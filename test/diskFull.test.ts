import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeSync, mkdirSync, readdirSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChannel } from "./helpers/channels";
import { expectError, ok, seedOrg, type Org } from "./helpers/seed";
import { postUpload } from "./helpers/uploads";

/**
 * A full disk: the data directory on a small tmpfs, filled up under a running server. Changes
 * are refused with DISK_FULL (not a bare 500) and store nothing, /health says the disk is full
 * (and warns before that, when space runs low), the log says it once rather than per request,
 * and once space is freed everything works again with nothing acknowledged lost.
 */

setDefaultTimeout(60_000);

const DISK_MB = 48;
const LOW_MB = 24;

/** Mounting a tmpfs needs root (CI runs as root); elsewhere the test is skipped, saying why. */
function mountSmallDisk(): { dir: string; unmount(): void } | string {
  const dir = mkdtempSync(join(tmpdir(), "parley-full-disk-"));
  const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${DISK_MB}m`, "tmpfs", dir], { stdout: "pipe", stderr: "pipe" });
  if (mounted.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs (${mounted.stderr.toString().trim() || `exit ${mounted.exitCode}`})`;
  }
  return {
    dir,
    unmount() {
      Bun.spawnSync(["umount", "-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const disk = process.getuid?.() === 0 ? mountSmallDisk() : "not running as root, so no tmpfs can be mounted";
if (typeof disk === "string") console.error(`test/diskFull.test.ts skipped: ${disk}`);

/** Writes zeros into `path` until the file system refuses more, less `leaveBytes`. */
function fill(path: string, leaveBytes = 0) {
  const fd = openSync(path, "a");
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (;;) {
      const free = statfsSync(path);
      const room = free.bavail * free.bsize - leaveBytes;
      if (room <= 0) break;
      writeSync(fd, chunk, 0, Math.min(chunk.length, room));
    }
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

const health = async (org: Org) => {
  const response = await fetch(`${org.server.url}/health`);
  return { status: response.status, body: (await response.json()) as { status: string; reason?: string; warning?: string } };
};

const lines = (output: string, text: string) => output.split("\n").filter((line) => line.includes(text)).length;

/** The log is written a moment after what it tells: the lines with `text` once they stop growing or reach `count`. */
async function linesOnceWritten(server: { output: string }, text: string, count: number): Promise<number> {
  const until = Date.now() + 5000;
  while (lines(server.output, text) < count && Date.now() < until) await Bun.sleep(20);
  return lines(server.output, text);
}

describe.skipIf(typeof disk === "string")("a full disk", () => {
  const { dir, unmount } = disk as Exclude<typeof disk, string>;
  const dataDir = join(dir, "data");
  const filler = join(dir, "filler");
  let org: Org;
  let channelId: number;
  const acknowledged: number[] = [];

  beforeAll(async () => {
    mkdirSync(dataDir);
    org = await seedOrg({ dataDir, env: { PARLEY_DISK_LOW_MB: String(LOW_MB), PARLEY_BACKUP_SCHEDULE: "off" } });
    channelId = await createChannel(org, org.owner, { principals: [org.owner.id, org.member.id] }, "full-disk");
  });
  afterAll(async () => {
    await org?.server.stop();
    unmount();
  });

  const send = (content: string) => org.member.api.post("/messages", { type: "stream", to: channelId, topic: "disk", content });

  test("with room to spare, /health is ok without a warning", async () => {
    for (let i = 0; i < 5; i++) acknowledged.push(ok(await send(`before ${i}`)).id);
    expect(await health(org)).toEqual({ status: 200, body: { status: "ok" } });
  });

  test("running low, /health warns and stays healthy, and the console's figures say so", async () => {
    fill(filler, (LOW_MB / 2) * 2 ** 20);
    const answer = await health(org);
    expect(answer.status).toBe(200);
    expect(answer.body.status).toBe("ok");
    expect(answer.body.warning).toContain("free on the disk holding the data directory");
    const status = ok(await org.admin.api.get("/server/status"));
    expect(status.disk).toMatchObject({ low: true, full: false });
    expect(status.disk.free_bytes).toBeLessThan(LOW_MB * 2 ** 20);
  });

  test("full, changes are refused with DISK_FULL and store nothing, /health fails, and the log says it once", async () => {
    fill(filler);
    // The write-ahead log may still have room of its own for a few small writes (and a
    // checkpoint into free pages of the database file can make some more): those are stored
    // and acknowledged, as they should be. Whatever is refused is refused as DISK_FULL.
    let refused = 0;
    for (let i = 0; i < 400 && refused < 5; i++) {
      const answer = await send(`while full ${i} ${"x".repeat(4000)}`);
      if (answer.status === 200) acknowledged.push(answer.body.id);
      else {
        expectError(answer, "DISK_FULL", 507);
        expect(answer.body.msg).toContain("disk is full");
        refused++;
      }
    }
    expect(refused).toBe(5);
    let statusRefused = false;
    for (let i = 0; i < 400 && !statusRefused; i++) {
      const answer = await org.member.api.post("/users/me/status", { status_text: `busy ${i} ${"y".repeat(50)}` });
      if (answer.status !== 200) {
        expectError(answer, "DISK_FULL", 507);
        statusRefused = true;
      }
    }
    expect(statusRefused).toBe(true);
    const upload = await postUpload(org, org.member, [{ name: "big.bin", bytes: new Uint8Array(64 * 1024) }]);
    expect(upload.status).toBe(507);
    expect(upload.body.code).toBe("DISK_FULL");
    // The half-written file was removed rather than left holding space.
    expect(readdirSync(join(dataDir, "files"), { recursive: true }).filter((name) => String(name).endsWith(".tmp"))).toEqual([]);

    const answer = await health(org);
    expect(answer.status).toBe(503);
    expect(answer.body.reason).toContain("is full");
    expect(lines(org.server.output, "The disk holding the data directory is full")).toBe(1);
    // No stack trace per refused request.
    expect(lines(org.server.output, "failed: SQLiteError")).toBe(0);
    expect(lines(org.server.output, "ENOSPC")).toBe(0);
    // Reads still work.
    ok(await org.member.api.get("/users/me"));
  });

  test("with space freed it goes on by itself: healthy, changes accepted, exactly the acknowledged messages stored", async () => {
    rmSync(filler);
    expect(await health(org)).toEqual({ status: 200, body: { status: "ok" } });
    acknowledged.push(ok(await send("after")).id);
    expect(await linesOnceWritten(org.server, "has room again", 1)).toBe(1);
    expect(ok(await org.member.api.post("/users/me/status", { status_text: "back" })).result).toBe("success");

    await org.server.stop();
    await org.server.startAgainOnSamePort();
    const history = ok(await org.member.api.get("/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow: [{ operator: "channel", operand: channelId }, { operator: "topic", operand: "disk" }] }));
    const ids = history.messages.map((message: { id: number }) => message.id);
    expect(ids).toEqual(acknowledged);
  });
});
