import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Socket, TCPSocketListener } from "bun";
import { createChannel, queryServer } from "../helpers/channels";
import { botOutboxRows } from "../helpers/outboxRows";
import { type Org, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { SmtpSink } from "../helpers/smtpSink";
import { FAST_OUTBOX } from "./helpers";

/**
 * The outbox's lanes (outbox/lanes.ts): one slow or dead destination delays only itself. A bot
 * service that accepts connections and never answers, with 15 notifications queued for it,
 * holds up neither e-mail nor another bot's service; one service gets at most
 * PARLEY_OUTBOX_WEBHOOK_CONCURRENCY requests at once, a bot its notifications one at a time in
 * order, and a failing service's queued items wait rather than all spending a try.
 */

setDefaultTimeout(60_000);

const CONCURRENCY = 3;

let sink: SmtpSink;
let org: Org;
let hanging: TCPSocketListener<undefined>;
const hangingSockets = new Set<Socket<undefined>>();
let hangingRequests = 0;

/** A receiver that answers after `delayMs`, counting requests under way at once. */
function countingReceiver(answer: (body: any) => Response, delayMs: number) {
  const state = { now: 0, most: 0, bodies: [] as any[] };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.json();
      state.bodies.push(body);
      state.most = Math.max(state.most, ++state.now);
      await Bun.sleep(delayMs);
      state.now--;
      return answer(body);
    },
  });
  return Object.assign(state, { server, url: (path: string) => `http://127.0.0.1:${server.port}/${path}` });
}

const quiet = () => Response.json({ response_not_required: true });
const receivers: ReturnType<typeof countingReceiver>[] = [];
const receiver = (answer: (body: any) => Response, delayMs = 0) => {
  const made = countingReceiver(answer, delayMs);
  receivers.push(made);
  return made;
};

let bots = 0;
async function webhookBot(url: string): Promise<{ id: number; name: string }> {
  const name = `Lane Bot ${++bots}`;
  const body = ok(await org.member.api.post("/bots", { full_name: name, short_name: `lane-bot-${bots}`, bot_type: 3, payload_url: JSON.stringify(url) }));
  return { id: body.user_id, name };
}

async function waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

const repliesOf = (botId: number) => queryServer<{ content: string }>(org.server, "SELECT content FROM messages WHERE sender_id = ? ORDER BY id", botId).map((row) => row.content);

beforeAll(async () => {
  hanging = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open: (socket) => void hangingSockets.add(socket),
      data: () => void hangingRequests++,
      close: (socket) => void hangingSockets.delete(socket),
    },
  });
  sink = await SmtpSink.start();
  org = await seedOrg({
    env: sink.env({
      ...FAST_OUTBOX,
      PARLEY_WEBHOOK_ALLOW_LOOPBACK: "1",
      // Far longer than the test: the hanging service holds its requests throughout.
      PARLEY_WEBHOOK_TIMEOUT_SECONDS: "60",
      PARLEY_OUTBOX_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
    }),
  });
}, 30_000);

afterAll(async () => {
  // The hanging service lets go first, so the server's clean stop has nothing to wait for.
  for (const socket of hangingSockets) socket.end();
  hanging?.stop(true);
  await org?.server.dispose();
  for (const made of receivers) made.server.stop(true);
  await sink?.stop();
});

describe("a bot service that accepts connections and never answers, with 15 notifications queued", () => {
  let hangingBot: { id: number };

  beforeAll(async () => {
    hangingBot = await webhookBot(`http://127.0.0.1:${hanging.port}/hook`);
    for (let i = 1; i <= 15; i++) await sendOk(org.member2, directMessage([hangingBot.id], `are you there? (${i})`));
    await waitFor(() => hangingRequests > 0, "the first request to the hanging service");
  });

  test("holds up no e-mail: an invitation arrives within 5 s", async () => {
    const before = sink.received.length;
    const started = Date.now();
    ok(await org.owner.api.post("/invites", { invitee_emails: "lanes@example.com", stream_ids: [], invite_expires_in_minutes: 60 }));
    const [mail] = (await sink.waitFor(before + 1, 5_000)).slice(before);
    expect(mail.recipients).toEqual(["lanes@example.com"]);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("holds up no other service: its bot answers at once", async () => {
    const other = receiver(() => Response.json({ content: "the other service answered" }));
    const bot = await webhookBot(other.url("other"));
    await sendOk(org.member2, directMessage([bot.id], "and you?"));
    expect(await waitFor(() => repliesOf(bot.id).length > 0 && repliesOf(bot.id), "the other bot's reply", 5_000)).toEqual(["the other service answered"]);
  });

  test("is still waited on, one notification at a time: the others of its bot wait their turn", async () => {
    expect(hangingSockets.size).toBe(1);
    // No try has ended yet (the one under way is counted when it does).
    const waiting = botOutboxRows<{ id: number }>(org.server, "id", hangingBot.id, "attempts = 0 AND sent_at IS NULL AND gave_up_at IS NULL").length;
    expect(waiting).toBe(15);
  });
});

describe("one service", () => {
  test(`gets at most ${CONCURRENCY} requests at once, from several bots`, async () => {
    const service = receiver(quiet, 300);
    const many = [];
    for (let i = 0; i < 7; i++) many.push(await webhookBot(service.url(`bot${i}`)));
    const channelId = await createChannel(org, org.member2);
    await sendOk(org.member2, channelMessage(channelId, "everyone", many.map((bot) => `@**${bot.name}**`).join(" ")));
    await waitFor(() => service.bodies.length === 7 && service.now === 0, "all seven notifications", 15_000);
    expect(service.most).toBe(CONCURRENCY);
  });

  test("gets one bot's notifications one at a time, in the order of the messages, and its replies come in that order", async () => {
    const service = receiver((body) => Response.json({ content: `re: ${body.data}` }), 100);
    const bot = await webhookBot(service.url("ordered"));
    const sent = ["one", "two", "three", "four", "five"];
    for (const content of sent) await sendOk(org.member2, directMessage([bot.id], content));
    await waitFor(() => repliesOf(bot.id).length === sent.length, "the five replies", 15_000);
    expect(service.bodies.map((body) => body.data)).toEqual(sent);
    expect(service.most).toBe(1);
    expect(repliesOf(bot.id)).toEqual(sent.map((content) => `re: ${content}`));
  });

  test("that keeps failing makes its queued items wait, rather than each spending a try at once", async () => {
    const failing = receiver(() => new Response("restarting", { status: 503 }));
    const many = [];
    for (let i = 0; i < 6; i++) many.push(await webhookBot(failing.url(`down${i}`)));
    const channelId = await createChannel(org, org.member2);
    await sendOk(org.member2, channelMessage(channelId, "everyone", many.map((bot) => `@**${bot.name}**`).join(" ")));
    await waitFor(() => failing.bodies.length >= CONCURRENCY, "the first tries");
    await Bun.sleep(600);
    // The first round failed together, so the service's lane paused (a second): the other three waited untried.
    expect(failing.bodies.length).toBe(CONCURRENCY);
    const attempts = many.map((bot) => botOutboxRows<{ attempts: number }>(org.server, "attempts", bot.id)[0].attempts);
    expect(attempts.filter((count) => count === 0)).toHaveLength(6 - CONCURRENCY);
  });
});
