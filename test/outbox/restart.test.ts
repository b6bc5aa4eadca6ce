import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { SmtpSink } from "../helpers/smtpSink";
import { tempDataDir } from "../helpers/server";
import { FAST_OUTBOX, type MailOrg, countInLog, deactivateWithMail, expectSaidAtStart, mailOrg, waitForLog } from "./helpers";

setDefaultTimeout(60_000);

/**
 * Mail queued while no SMTP server is configured waits in the outbox untouched; each test then
 * stops the server (gracefully or with kill -9 right after the commit) and starts it again with
 * SMTP, and the mail goes out once, and never again after a further restart.
 */
describe("the outbox across restarts", () => {
  let sink: SmtpSink;
  const dataDirs: string[] = [];
  beforeAll(async () => {
    sink = await SmtpSink.start();
  });
  afterAll(async () => {
    await sink.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  async function queueWithoutSmtp(): Promise<{ org: MailOrg; dataDir: string; to: string }> {
    const dataDir = tempDataDir();
    dataDirs.push(dataDir);
    const { startInitializedServer } = await import("../helpers/seed");
    // Set up the organization, then serve it without SMTP.
    const first = await startInitializedServer({ dataDir, env: FAST_OUTBOX });
    await first.stop();
    const org = await mailOrg(FAST_OUTBOX, dataDir);
    await expectSaidAtStart(org, /No SMTP server configured \(PARLEY_SMTP_HOST\): e-mails are kept in the outbox/);
    const to = await deactivateWithMail(org);
    return { org, dataDir, to };
  }

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    test(`mail queued before a ${signal === "SIGKILL" ? "kill -9" : "clean stop"} goes out once at the next start`, async () => {
      const { org, dataDir, to } = await queueWithoutSmtp();
      const before = sink.received.length;
      await Bun.sleep(500);
      expect(org.server.output).not.toContain("outbox: item");
      await org.server.stop(signal);

      const again = await mailOrg(sink.env(FAST_OUTBOX), dataDir);
      try {
        const mails = await sink.waitFor(before + 1);
        expect(mails[before].recipients).toEqual([to]);
        await waitForLog(again.server, /delivered on try 1/);
        // Marked sent: a further restart (even a kill) sends nothing again.
        await again.server.restart("SIGKILL");
        await Bun.sleep(800);
        expect(sink.received.length).toBe(before + 1);
        expect(countInLog(again.server, /outbox: item/)).toBe(0);
      } finally {
        await again.server.stop();
      }
    });
  }

  test("a clean stop while a mail is being sent waits for it, so the next start does not send it again", async () => {
    const { org, dataDir } = await queueWithoutSmtp();
    await org.server.stop();
    const before = sink.received.length;
    const startedBefore = sink.dataStarted;
    sink.delayDataMs = 1500;
    try {
      const again = await mailOrg(sink.env(FAST_OUTBOX), dataDir);
      // The mail's data has reached the server, which has not answered yet: stop now.
      const deadline = Date.now() + 10_000;
      while (sink.dataStarted === startedBefore && Date.now() < deadline) await Bun.sleep(20);
      expect(sink.dataStarted).toBe(startedBefore + 1);
      expect(await again.server.stop("SIGTERM")).toBe(0);
      await waitForLog(again.server, /delivered on try 1/, 3000);
      sink.delayDataMs = 0;
      await again.server.restart();
      await Bun.sleep(800);
      expect(sink.received.length).toBe(before + 1);
      expect(countInLog(again.server, /outbox: item/)).toBe(0);
      await again.server.stop();
    } finally {
      sink.delayDataMs = 0;
    }
  });

  test("the start says how many e-mails wait while no SMTP server is configured", async () => {
    const { org } = await queueWithoutSmtp();
    await org.server.restart();
    await expectSaidAtStart(org, /No SMTP server configured .*\(1 waiting\)/);
    await org.server.stop();
  });
});
