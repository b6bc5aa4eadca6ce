/**
 * Web Push at scale (npm run bench:push): a channel of 1,000 members, every one of whom has a
 * browser subscribed to a local RFC 8030 receiver, none of them online. This process sends
 * channel messages that notify them all (a wildcard mention, which pushes by default), one at a
 * time, and prints:
 *  - the send path: Parley's CPU per send and POST /messages latency (p50/p99), against the same
 *    server and channel with nobody subscribed, in alternating rounds; the figure that counts is
 *    the ratio of CPU per send (target at most 1.05), since latency on a shared machine moves
 *    with everything else. Each send waits until the last one's notifications are all out;
 *  - delivery: from just before each POST until each of the 1,000 pushes reaches the receiver,
 *    p50/p99/max over all pushes (target: all within 5 s).
 * The receiver counts requests per subscription; it does not decrypt (tests do: webPushDelivery).
 *
 *   bun bench/webPush.ts [--people 1000] [--messages 10] [--rounds 3]
 */
import { Database } from "bun:sqlite";
import { createECDH, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DATABASE_FILE } from "../src/db/client";
import { OWNER } from "../test/helpers/seed";
import { runParley } from "../test/helpers/server";
import { buildOrganization, cpuMs, startParley } from "./lib";

const { values } = parseArgs({ options: { people: { type: "string", default: "1000" }, messages: { type: "string", default: "10" }, rounds: { type: "string", default: "3" } } });
const PEOPLE = Number(values.people);
const MESSAGES = Number(values.messages);
const ROUNDS = Number(values.rounds);
const CHANNEL = "everyone";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

// The push service: answers 201 at once, noting when each subscription's request came.
let arrivals: number[] = [];
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    await request.arrayBuffer();
    arrivals.push(performance.now());
    return new Response(null, { status: 201 });
  },
});

const dataDir = mkdtempSync(join(tmpdir(), "parley-bench-push-"));
try {
  const init = runParley(["init", "--data-dir", dataDir, "--org-name", "Bench", "--email", OWNER.email, "--password", OWNER.password]);
  if (init.exitCode !== 0) throw new Error(init.stderr);
  const users = await buildOrganization(dataDir, PEOPLE + 1, [CHANNEL]);
  const sender = users[0];
  const subscribers = users.slice(1);
  const subscriptionRows = subscribers.map((user, i) => {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    return [user.id, `http://127.0.0.1:${receiver.port}/push/${i}`, ecdh.getPublicKey().toString("base64url"), randomBytes(16).toString("base64url")] as const;
  });

  const setSubscriptions = (on: boolean) => {
    const db = new Database(join(dataDir, DATABASE_FILE));
    db.run("PRAGMA busy_timeout = 5000");
    db.run("DELETE FROM web_push_subscriptions");
    if (on) {
      const insert = db.prepare("INSERT INTO web_push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, ?, 0)");
      db.transaction(() => subscriptionRows.forEach((row) => insert.run(...row)))();
    }
    db.close();
  };

  const notificationsDecided = async () => {
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      const pending = db.query("SELECT count(*) AS count FROM outbox WHERE kind IN ('message_notifications', 'web_push') AND sent_at IS NULL AND gave_up_at IS NULL");
      while ((pending.get() as { count: number }).count > 0) await Bun.sleep(10);
    } finally {
      db.close();
    }
  };

  const measure = async (subscribed: boolean) => {
    setSubscriptions(subscribed);
    const server = await startParley(dataDir, { env: { PARLEY_WEBHOOK_ALLOW_LOOPBACK: "1", PARLEY_OUTBOX_SWEEP_SECONDS: "1", PARLEY_MISSED_MESSAGE_EMAIL_CHECK_SECONDS: "3600" } });
    const authorization = `Basic ${btoa(`${sender.email}:${sender.apiKey}`)}`;
    const post = (content: string) =>
      fetch(`${server.url}/api/v1/messages`, { method: "POST", headers: { authorization, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ type: "stream", to: CHANNEL, topic: "news", content }) });
    try {
      // Warm-up: the JIT, the caches, the outbox's lanes.
      for (let i = 0; i < 3; i++) {
        arrivals = [];
        await post(`@**all** warm-up ${i}`);
        if (subscribed) while (arrivals.length < subscribers.length) await Bun.sleep(20);
        await notificationsDecided();
      }
      const sendMs: number[] = [];
      const pushMs: number[] = [];
      let lastPushMs = 0;
      let cpu = 0;
      for (let i = 0; i < MESSAGES; i++) {
        arrivals = [];
        const before = cpuMs(server.pid);
        const started = performance.now();
        const answer = await post(`@**all** news ${i}`);
        sendMs.push(performance.now() - started);
        if (answer.status !== 200) throw new Error(`send failed: ${answer.status} ${await answer.text()}`);
        // The send's own CPU: read before the pushes run (they start on the next outbox turn,
        // so a little of them may be counted: the figure is an upper bound).
        cpu += cpuMs(server.pid) - before;
        if (subscribed) {
          const deadline = started + 30_000;
          while (arrivals.length < subscribers.length && performance.now() < deadline) await Bun.sleep(5);
          if (arrivals.length < subscribers.length) throw new Error(`only ${arrivals.length} of ${subscribers.length} pushes arrived within 30 s`);
          for (const at of arrivals) pushMs.push(at - started);
          lastPushMs = Math.max(lastPushMs, arrivals[arrivals.length - 1] - started);
        }
        // Who is notified is decided just after the send, and the pushes go out after that: the
        // next send waits until all of it is done (marked in the outbox), so that it does not share
        // the CPU with the last one's notifications, and only the send path is compared.
        await notificationsDecided();
      }
      return { sendMs, pushMs, lastPushMs, cpuPerSend: cpu / MESSAGES };
    } finally {
      await server.stop();
    }
  };

  console.log(`A channel of ${PEOPLE} people, ${MESSAGES} messages per round notifying all of them (@**all**), one at a time; ${ROUNDS} rounds`);
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const allPushes: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const without = await measure(false);
    const withPush = await measure(true);
    const p = (list: number[], q: number) => percentile([...list].sort((a, b) => a - b), q).toFixed(1);
    ratios.push(median(withPush.sendMs) / median(without.sendMs));
    cpuRatios.push(withPush.cpuPerSend / without.cpuPerSend);
    allPushes.push(...withPush.pushMs);
    console.log(
      `round ${round}: send p50/p99 ${p(without.sendMs, 50)}/${p(without.sendMs, 99)} ms without subscriptions, ${p(withPush.sendMs, 50)}/${p(withPush.sendMs, 99)} ms with; ` +
        `CPU per send ${without.cpuPerSend.toFixed(1)} / ${withPush.cpuPerSend.toFixed(1)} ms; pushes p50/p99/max ${p(withPush.pushMs, 50)}/${p(withPush.pushMs, 99)}/${withPush.lastPushMs.toFixed(0)} ms`,
    );
  }
  allPushes.sort((a, b) => a - b);
  // CPU per send is the figure that counts (latency on a shared machine moves with everything else).
  console.log(`Parley's CPU per send with / without subscriptions, median of rounds: ${median(cpuRatios).toFixed(3)} (target <= 1.05); send latency: ${median(ratios).toFixed(3)}`);
  console.log(`All ${allPushes.length} pushes: p50 ${percentile(allPushes, 50).toFixed(0)} ms, p99 ${percentile(allPushes, 99).toFixed(0)} ms, max ${allPushes[allPushes.length - 1].toFixed(0)} ms (target: every push within 5,000 ms)`);
} finally {
  receiver.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
}
