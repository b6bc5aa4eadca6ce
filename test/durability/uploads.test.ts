import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { queryServer } from "../helpers/channels";
import { ApiClient } from "../helpers/client";
import { seedOrg, type Org } from "../helpers/seed";
import { basicAuth, download } from "../helpers/uploads";

/**
 * Uploaded bytes and SIGKILL: the file store writes each file under a temporary name, flushes
 * it and renames it, so a file named by a hash always holds exactly the bytes of that hash;
 * and an upload the server acknowledged is there after the restart.
 */

const FILE_STORE = join(import.meta.dir, "../../src/db/fileStore.ts");
const HASH_NAME = /^[0-9a-f]{64}$/;

/** Every file of a store: the ones under a hash, and what else lies there (temporary files). */
function storeContents(filesDir: string) {
  let entries: string[] = [];
  try {
    entries = readdirSync(filesDir, { recursive: true, encoding: "utf8" }).filter((path) => path.includes("/"));
  } catch {
    return { hashed: [], other: [] };
  }
  const names = entries.map((path) => ({ path: join(filesDir, path), name: path.slice(path.lastIndexOf("/") + 1) }));
  return { hashed: names.filter((entry) => HASH_NAME.test(entry.name)), other: names.filter((entry) => !HASH_NAME.test(entry.name)) };
}

function expectEveryHashTrue(filesDir: string) {
  const { hashed } = storeContents(filesDir);
  const wrong = hashed.filter(({ path, name }) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex") !== name);
  expect(wrong.map((entry) => entry.name)).toEqual([]);
  return hashed.length;
}

test("killed while writing: no file under a hash ever holds anything but those bytes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-store-crash-"));
  const script = join(dir, "writer.ts");
  // Writes large distinct files without end, until it is killed.
  writeFileSync(
    script,
    `import { storeFileBytes, useFileStoreIn } from ${JSON.stringify(FILE_STORE)};
useFileStoreIn(${JSON.stringify(dir)});
for (let i = 0; ; i++) {
  const bytes = new Uint8Array(8 * 1024 * 1024).fill(i % 251);
  bytes.set(crypto.getRandomValues(new Uint8Array(64)));
  await storeFileBytes(bytes);
}
`,
  );
  try {
    let interrupted = 0;
    for (let round = 0; round < 8 && interrupted < 2; round++) {
      const child = Bun.spawn([process.execPath, script], { stdout: "ignore", stderr: "inherit" });
      await Bun.sleep(150 + Math.floor(Math.random() * 300));
      child.kill("SIGKILL");
      await child.exited;
      // A temporary file left behind is a write the kill cut off.
      const { other } = storeContents(join(dir, "files"));
      interrupted = other.length;
      expectEveryHashTrue(join(dir, "files"));
    }
    // Guards the test itself: the kills did land in the middle of writes.
    expect(interrupted).toBeGreaterThan(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

let org: Org;
beforeAll(async () => {
  org = await seedOrg();
}, 60_000);
afterAll(() => org.server.dispose());

test("the server killed during uploads: what it acknowledged is served after the restart, and nothing is half there", async () => {
  const acknowledged: Array<{ url: string; bytes: Uint8Array<ArrayBuffer> }> = [];
  let cutOff = 0;
  let killed = false;
  // Four lanes upload one file after another until the kill.
  const lanes = Array.from({ length: 4 }, async (_, lane) => {
    for (let i = 0; !killed; i++) {
      const bytes = new Uint8Array(3 * 1024 * 1024).fill((lane * 50 + i) % 251);
      bytes.set(crypto.getRandomValues(new Uint8Array(32)));
      const form = new FormData();
      form.append("file", new Blob([bytes]), `crash-${lane}-${i}.bin`);
      try {
        const response = await fetch(new URL("/api/v1/user_uploads", org.server.url), { method: "POST", headers: basicAuth(org.member), body: form });
        const body = (await response.json()) as { url?: string };
        if (response.status === 200 && body.url) acknowledged.push({ url: body.url, bytes });
      } catch {
        // Cut off by the kill: not acknowledged, so it may or may not be there.
        cutOff++;
        return;
      }
    }
  });
  // Killed once some uploads were acknowledged (300 ms in, or later on a loaded machine, where
  // a 3 MB upload can take longer than that), while others are under way.
  await Bun.sleep(300);
  const deadline = Date.now() + 20_000;
  while (acknowledged.length === 0 && Date.now() < deadline) await Bun.sleep(20);
  killed = true;
  await org.server.stop("SIGKILL");
  await Promise.all(lanes);
  await org.server.restart();
  // Guards the test itself: uploads were acknowledged before the kill, and some cut off by it.
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(cutOff).toBeGreaterThan(0);
  org.anon = new ApiClient(org.server.url);
  org.member = { ...org.member, api: org.anon.as(org.member.email, org.member.apiKey) };

  for (const { url, bytes } of acknowledged) {
    const response = await download(org, org.member, url);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  }
  const filesDir = join(org.server.dataDir, "files");
  expectEveryHashTrue(filesDir);
  // Every listed upload has its bytes.
  const listed = queryServer<{ sha256: string }>(org.server, "SELECT sha256 FROM attachments");
  const stored = new Set(storeContents(filesDir).hashed.map((entry) => entry.name));
  expect(listed.filter((row) => !stored.has(row.sha256))).toEqual([]);
}, 60_000);
