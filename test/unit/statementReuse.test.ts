import type { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase, readConnection, writeConnection } from "../../src/db/client";

// The database client keeps compiled statements by their SQL text (db/client.ts), on each of
// its two connections. A statement over a list a request sent has a new text for every length
// of list, and its size grows with the list: those must not be kept, or lists of every length
// would fill memory.

let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "parley-statement-reuse-"));
  openDatabase(dataDir);
});

afterAll(() => {
  closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

const overList = (length: number) => `SELECT id FROM messages WHERE id IN (${Array(length).fill("?").join(", ")})`;

describe.each([
  ["write", writeConnection],
  ["read", readConnection],
])("compiled statements kept for reuse on the %s connection", (_, connection) => {
  // drizzle keeps the bun:sqlite connection it was given as $client.
  const client = (): Database => connection().$client;

  test("a statement with few parameters is compiled once", () => {
    const text = overList(10);
    expect(client().prepare(text)).toBe(client().prepare(text));
  });

  test("one over a long list is compiled for each call and not kept", () => {
    for (const length of [500, 20_000]) {
      const text = overList(length);
      const first = client().prepare(text);
      expect(client().prepare(text)).not.toBe(first);
      expect(first.all(...Array.from({ length }, (_, i) => i))).toEqual([]);
    }
  });
});
