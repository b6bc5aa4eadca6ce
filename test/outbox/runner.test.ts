import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase } from "../../src/db/client";
import { openStore } from "../../src/db/open";
import { enqueueOutbox, onOutboxQueued, type OutboxItem } from "../../src/db/outbox";
import { outbox } from "../../src/db/tables";
import { read, write } from "../../src/db/transaction";
import { configureMail } from "../../src/outbox/mail";
import { backoffSeconds, nudgeOutbox, outboxItem, startOutboxRunner, stopOutboxRunner } from "../../src/outbox/runner";
import { SINK_FROM, SMTP_TEST_CERT, SmtpSink } from "../helpers/smtpSink";
import { dropDatabaseOf, ensureDatabaseFor } from "../helpers/testDatabase";

setDefaultTimeout(30_000);

/**
 * The runner in this process, against its own database and a sink: what HTTP cannot reach. The
 * database is SQLite in a data dir, or in the PostgreSQL run a PostgreSQL database of its own.
 */
describe("outbox runner", () => {
  let sink: SmtpSink;
  let dataDir: string;
  beforeAll(async () => {
    sink = await SmtpSink.start();
    dataDir = mkdtempSync(join(tmpdir(), "parley-outbox-"));
    const databaseUrl = (await ensureDatabaseFor(dataDir)).PARLEY_DATABASE_URL ?? null;
    await openStore({ dataDir, databaseUrl, filesDir: null }, { newInstall: "allow" });
    configureMail({ host: "127.0.0.1", port: sink.port, security: "starttls", user: null, password: null, from: SINK_FROM, caFile: SMTP_TEST_CERT }, 1);
    startOutboxRunner({ retryBaseSeconds: 1, retryMaxSeconds: 1, maxAttempts: 3 });
    onOutboxQueued(() => void nudgeOutbox());
  });
  afterAll(async () => {
    onOutboxQueued(null);
    await stopOutboxRunner();
    configureMail(null, 1);
    await closeDatabase();
    await dropDatabaseOf(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
    await sink.stop();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const mail = (to: string): OutboxItem => ({
    kind: "account_deactivated_email",
    payload: { user_id: 1, to, full_name: "Someone", realm_name: "Test Org", realm_url: "http://localhost", comment: null },
  });
  const rows = () => read(async (db) => await db.select().from(outbox).orderBy(outbox.id));

  test("a rolled-back write leaves nothing queued and nothing is sent", async () => {
    await expect(
      write(async (tx) => {
        await enqueueOutbox(tx, mail("rolled-back@example.com"), now());
        throw new Error("the change failed after queueing");
      }),
    ).rejects.toThrow("the change failed");
    await nudgeOutbox();
    expect(await rows()).toEqual([]);
    expect(sink.attempts).toEqual([]);
  });

  test("committed items go out in ID order and are marked sent", async () => {
    await write(async (tx) => {
      await enqueueOutbox(tx, mail("first@example.com"), now());
      await enqueueOutbox(tx, mail("second@example.com"), now());
    });
    const mails = await sink.waitFor(2);
    // The sink has them before the sender hears "accepted": let the pass finish.
    await nudgeOutbox();
    expect(mails.map((m) => m.recipients[0])).toEqual(["first@example.com", "second@example.com"]);
    for (const row of await rows()) {
      expect(row.sentAt).not.toBeNull();
      expect(row.attempts).toBe(1);
      expect(mails.map((m) => m.messageId)).toContain(`<outbox.${row.id}.${row.createdAt}@parley.test>`);
    }
    // A further pass finds nothing to do.
    await nudgeOutbox();
    expect(sink.received.length).toBe(2);
  });

  test("an item of a kind this version has no deliverer for is given up", async () => {
    const id = await write(
      async (tx) =>
        (
          await tx
            .insert(outbox)
            .values({ kind: "from_the_future" as OutboxItem["kind"], payload: {} as OutboxItem["payload"], createdAt: now(), nextAttemptAt: now() })
            .returning({ id: outbox.id })
        )[0].id,
    );
    await nudgeOutbox();
    const row = (await outboxItem(id))!;
    expect(row.gaveUpAt).not.toBeNull();
    expect(row.sentAt).toBeNull();
    expect(row.lastError).toContain("No deliverer");
  });

  test("a failure counts the try and pushes the next one back by the backoff", async () => {
    // Times are whole seconds and the backoff here is one: begin just after a second starts,
    // so that the nudge below comes before the retry is due, not a second boundary later.
    await Bun.sleep(1000 - (Date.now() % 1000) + 10);
    sink.refuseNext = 1;
    const before = now();
    await write((tx) => enqueueOutbox(tx, mail("later@example.com"), now()));
    await nudgeOutbox();
    const row = (await rows()).at(-1)!;
    expect(row).toMatchObject({ attempts: 1, sentAt: null, gaveUpAt: null });
    expect(row.lastError).toContain("451");
    expect(row.nextAttemptAt).toBeGreaterThanOrEqual(before + 1);
    // Not due yet: a nudge leaves it.
    await nudgeOutbox();
    expect((await outboxItem(row.id))!.attempts).toBe(1);
  });

  test("backoff doubles from the base up to the cap, never under a second", () => {
    const policy = { retryBaseSeconds: 60, retryMaxSeconds: 3600, maxAttempts: 30 };
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffSeconds(n, policy))).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600]);
    expect(backoffSeconds(1, { ...policy, retryBaseSeconds: 0 })).toBe(1);
  });
});
