import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { closeDatabase, openDatabase } from "../../src/db/client";
import { writeSend } from "../../src/db/groupCommit";
import { read, write } from "../../src/db/transaction";
import type { SendTx } from "../../src/db/types";

// Group commit runs the changes queued in one event-loop turn in one transaction, without a
// savepoint each; these check that each change still succeeds or fails on its own.

let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "parley-group-commit-"));
  openDatabase(dataDir);
  await write((tx) => tx.run(sql`CREATE TABLE scratch (value TEXT NOT NULL UNIQUE)`));
});

afterAll(() => {
  closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const insert = (tx: SendTx, value: string) => tx.run(sql`INSERT INTO scratch (value) VALUES (${value})`);
const count = (tx: SendTx, value: string) => tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM scratch WHERE value = ${value}`)[0].n;
const stored = async () => (await read((db) => db.all<{ value: string }>(sql`SELECT value FROM scratch ORDER BY value`))).map((row) => row.value);
const clear = () => write((tx) => tx.run(sql`DELETE FROM scratch`));

/** Queues every change in the same turn, so they share one batch, and waits for all. */
const batch = (changes: Array<(tx: SendTx) => unknown>) => Promise.allSettled(changes.map((change) => writeSend(change)));

describe("group commit", () => {
  test("changes in one batch see the ones queued before them", async () => {
    await clear();
    const results = await batch([(tx) => insert(tx, "a"), (tx) => count(tx, "a"), (tx) => insert(tx, "b")]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect((results[1] as PromiseFulfilledResult<number>).value).toBe(1);
    expect(await stored()).toEqual(["a", "b"]);
  });

  test("a change that fails before writing fails alone", async () => {
    await clear();
    const results = await batch([
      (tx) => insert(tx, "a"),
      () => {
        throw new Error("refused");
      },
      (tx) => insert(tx, "c"),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe("refused");
    expect(await stored()).toEqual(["a", "c"]);
  });

  test("a statement refused by a constraint leaves nothing behind and fails alone", async () => {
    await clear();
    const results = await batch([(tx) => insert(tx, "a"), (tx) => insert(tx, "a"), (tx) => insert(tx, "b")]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await stored()).toEqual(["a", "b"]);
  });

  test("a change that fails after writing is undone completely, and the others still commit", async () => {
    await clear();
    let attempts = 0;
    const results = await batch([
      (tx) => insert(tx, "a"),
      (tx) => {
        attempts++;
        insert(tx, "half");
        throw new Error("failed halfway");
      },
      (tx) => insert(tx, "c"),
      (tx) => count(tx, "half"),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe("failed halfway");
    // Whichever way it was undone, no later change saw the half-written row.
    expect((results[3] as PromiseFulfilledResult<number>).value).toBe(0);
    expect(await stored()).toEqual(["a", "c"]);
    // Once in the batch, once more on its own.
    expect(attempts).toBe(2);
  });

  test("batches after a failed one work normally", async () => {
    await clear();
    const results = await batch([(tx) => insert(tx, "x"), (tx) => insert(tx, "y")]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(await stored()).toEqual(["x", "y"]);
  });
});
