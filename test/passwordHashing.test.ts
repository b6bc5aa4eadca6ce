import { Database } from "bun:sqlite";
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DATABASE_FILE } from "../src/db/client";
import { ApiClient } from "./helpers/client";
import { OWNER, login, ok } from "./helpers/seed";
import { TestServer, runParley, tempDataDir } from "./helpers/server";

// The suite hashes passwords at argon2id's lowest cost (test/helpers/testEnvironment.ts). A
// server without that setting, as every operator runs it, must hash at the real cost, and one
// with it must say in its log that it protects nothing.

setDefaultTimeout(30_000);

const REAL_COST = "$argon2id$v=19$m=65536,t=2,p=1$";
const LOWEST_COST = "$argon2id$v=19$m=1024,t=1,p=1$";
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const storedHashes = (dataDir: string) => {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.query<{ email: string; password_hash: string }, []>("SELECT email, password_hash FROM users WHERE password_hash IS NOT NULL ORDER BY id").all();
  } finally {
    db.close();
  }
};

async function organization(setting: string) {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const env = { PARLEY_TEST_ONLY_WEAK_PASSWORD_HASHING: setting };
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Hashes", "--email", OWNER.email, "--password", OWNER.password, "--full-name", OWNER.fullName], { env });
  expect(init.exitCode).toBe(0);
  const server = await TestServer.start({ dataDir, env });
  try {
    const anon = new ApiClient(server.url);
    const owner = await login(anon, OWNER.email, OWNER.password);
    ok(await owner.api.post("/users", { email: "new@example.com", password: "new-person-password", full_name: "New Person" }));
    // The new person's password works whatever it was hashed at.
    await login(anon, "new@example.com", "new-person-password");
    return { hashes: storedHashes(dataDir).map((row) => row.password_hash), log: server.output };
  } finally {
    await server.dispose();
  }
}

test("without the test setting, init and new accounts hash at argon2id's real cost, and nothing is said", async () => {
  const { hashes, log } = await organization("");
  expect(hashes).toHaveLength(2);
  for (const hash of hashes) expect(hash).toStartWith(REAL_COST);
  expect(log).not.toContain("WEAK_PASSWORD_HASHING");
});

test("with it, hashes are at the lowest cost and the log warns at start", async () => {
  const { hashes, log } = await organization("1");
  expect(hashes).toHaveLength(2);
  for (const hash of hashes) expect(hash).toStartWith(LOWEST_COST);
  expect(log).toContain("PARLEY_TEST_ONLY_WEAK_PASSWORD_HASHING is on");
});
