import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { closeDatabase, openDatabase } from "../../src/db/client";
import { cachedUntilChange } from "../../src/db/caches";
import { onCommit, read, write, writeUpkeep } from "../../src/db/transaction";
import type { Emitted, Reader, Tx, UpkeepTx } from "../../src/db/types";

// The async store's promises (db/transaction.ts): one write at a time even when callbacks
// await, reads that neither see nor wait for an open write, and events only for what committed,
// in commit order. These run on the store itself, in this process: the HTTP-level check, a
// client registering while messages are sent, is test/events/registerDuringSends.test.ts.

let dataDir: string;
const published: Emitted[][] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "parley-store-"));
  openDatabase(dataDir);
  onCommit((emitted) => {
    published.push(emitted);
  });
  await write((tx) => tx.run(sql`CREATE TABLE scratch (value TEXT NOT NULL)`));
});

afterAll(() => {
  onCommit(() => {});
  closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const insert = (tx: Tx, value: string) => tx.run(sql`INSERT INTO scratch (value) VALUES (${value})`);
const values = (db: Reader) => db.all<{ value: string }>(sql`SELECT value FROM scratch ORDER BY rowid`).map((row) => row.value);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clear = async () => {
  await write((tx) => tx.run(sql`DELETE FROM scratch`));
  published.length = 0;
};
// The events carry only what this test reads from them.
const emit = (tx: Tx, tag: string) => tx.emit({ type: "heartbeat", tag } as unknown as Emitted["event"], [1]);
const tags = () => published.map((batch) => batch.map((one) => (one.event as unknown as { tag: string }).tag));

describe("write(): one at a time", () => {
  test("two writes whose callbacks await do not interleave: the second starts after the first commits", async () => {
    await clear();
    const steps: string[] = [];
    const first = write(async (tx) => {
      steps.push("first begins");
      insert(tx, "a1");
      await pause(30);
      insert(tx, "a2");
      steps.push("first ends");
    });
    const second = write(async (tx) => {
      steps.push("second begins");
      expect(values(tx)).toEqual(["a1", "a2"]);
      insert(tx, "b1");
      await pause(5);
      steps.push("second ends");
    });
    await Promise.all([first, second]);
    expect(steps).toEqual(["first begins", "first ends", "second begins", "second ends"]);
    expect(await read(values)).toEqual(["a1", "a2", "b1"]);
  });

  test("writes run in the order they were asked for, many at once", async () => {
    await clear();
    await Promise.all(Array.from({ length: 50 }, (_, i) => write(async (tx) => {
      if (i % 7 === 0) await pause(1);
      insert(tx, String(i));
    })));
    expect(await read(values)).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
  });

  test("a write that fails after awaiting changes nothing, and the next write goes on", async () => {
    await clear();
    const failing = write(async (tx) => {
      insert(tx, "lost");
      await pause(5);
      throw new Error("refused");
    });
    const next = write((tx) => insert(tx, "kept"));
    await expect(failing).rejects.toThrow("refused");
    await next;
    expect(await read(values)).toEqual(["kept"]);
  });
});

describe("read(): its own connection", () => {
  test("a read while a write is open sees the last commit and does not wait for the write", async () => {
    await clear();
    await write((tx) => insert(tx, "committed"));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = write(async (tx) => {
      insert(tx, "uncommitted");
      await held;
    });
    // The write is open (its callback waits); the read answers meanwhile, from the last commit.
    expect(await read(values)).toEqual(["committed"]);
    release();
    await writing;
    expect(await read(values)).toEqual(["committed", "uncommitted"]);
  });

  test("a read cannot write", async () => {
    await expect(read((db) => db.run(sql`INSERT INTO scratch (value) VALUES ('stray')`))).rejects.toThrow();
    expect(await read(values)).not.toContain("stray");
  });

  test("a read keeps one snapshot across its awaits while writes commit", async () => {
    await clear();
    await write((tx) => insert(tx, "before"));
    const seen = await read(async (db) => {
      const first = values(db);
      await write((tx) => insert(tx, "during"));
      return [first, values(db)];
    });
    expect(seen).toEqual([["before"], ["before"]]);
    expect(await read(values)).toEqual(["before", "during"]);
  });
});

describe("events: after COMMIT, in commit order, never for a rollback", () => {
  test("a rolled-back write publishes nothing, not even what it emitted before failing", async () => {
    await clear();
    const failing = write(async (tx) => {
      emit(tx, "rolled back");
      await pause(5);
      throw new Error("refused");
    });
    await expect(failing).rejects.toThrow("refused");
    await write((tx) => emit(tx, "committed"));
    expect(tags()).toEqual([["committed"]]);
  });

  test("events are published once their write commits, in the order the writes committed", async () => {
    await clear();
    let firstPublishedAtCommit = false;
    const slow = write(async (tx) => {
      emit(tx, "slow");
      await pause(20);
      // Nothing is published while the transaction is open.
      firstPublishedAtCommit = published.length === 0;
    });
    const quick = write((tx) => emit(tx, "quick"));
    await Promise.all([slow, quick]);
    expect(firstPublishedAtCommit).toBe(true);
    expect(tags()).toEqual([["slow"], ["quick"]]);
  });

  test("emitting after the transaction ended is refused", async () => {
    let leaked: Tx | undefined;
    await write((tx) => {
      leaked = tx;
    });
    expect(() => emit(leaked!, "late")).toThrow("after its transaction ended");
  });
});

describe("cached copies (db/caches.ts) across upkeep writes", () => {
  // A copy of the scratch table, under a name only http/auth.ts declares, which this file does not load.
  let loads = 0;
  const scratchCopy = cachedUntilChange("verifiedAccounts", (db) => {
    loads++;
    return values(db);
  });
  const upkeep = (tx: UpkeepTx, value: string) => tx.run(sql`INSERT INTO scratch (value) VALUES (${value})`);

  test("an upkeep write, committed or rolled back, leaves the copies in use; a write() drops them", async () => {
    await clear();
    expect(await read(scratchCopy)).toEqual([]);
    const loadsBefore = loads;
    // What an upkeep write changes is, by its contract, nothing a copy is made from: the
    // copy of a table it did change shows that it was not reloaded.
    await writeUpkeep((tx) => upkeep(tx, "upkeep"));
    await expect(writeUpkeep(async (tx) => {
      upkeep(tx, "rolled back");
      throw new Error("nothing to merge");
    })).rejects.toThrow("nothing to merge");
    expect(await read(scratchCopy)).toEqual([]);
    expect(loads).toBe(loadsBefore);
    expect(await read(values)).toEqual(["upkeep"]);

    await write((tx) => insert(tx, "write"));
    expect(await read(scratchCopy)).toEqual(["upkeep", "write"]);
    expect(loads).toBe(loadsBefore + 1);
  });

  test("a copy loaded in a read whose snapshot predates a commit serves that read but is not kept", async () => {
    await clear();
    await write((tx) => insert(tx, "old"));
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reading = read(async (db) => {
      values(db); // the snapshot begins here
      await gate;
      return scratchCopy(db);
    });
    await write((tx) => insert(tx, "new"));
    release();
    expect(await reading).toEqual(["old"]);
    expect(await read(scratchCopy)).toEqual(["old", "new"]);
  });

  test("an upkeep write cannot emit events through its type, and publishes none", async () => {
    await clear();
    await writeUpkeep((tx) => upkeep(tx, "quiet"));
    expect(published).toEqual([]);
  });
});
