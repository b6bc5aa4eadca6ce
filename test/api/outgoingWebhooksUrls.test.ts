import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { queryServer } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { botOutboxRows } from "../helpers/outboxRows";
import { LOCAL_SPELLINGS } from "../helpers/localSpellings";
import { type Org, expectError, ok, seedOrg } from "../helpers/seed";
import { directMessage, sendOk } from "../helpers/sending";

/**
 * Which service URLs an outgoing webhook may reach (docs/FEATURES.md, "Outgoing webhooks"), over
 * HTTP on a server without PARLEY_WEBHOOK_ALLOW_LOOPBACK: receivers on this machine's loopback
 * addresses must never be called, whatever spelling the bot's URL uses. The rule case by case
 * is test/net/outboundPolicy.test.ts.
 */

let org: Org;
/** Receivers on the same port of 127.0.0.1 and ::1, where every local spelling would land. */
let receivers: ReturnType<typeof Bun.serve>[] = [];
const requests: string[] = [];
let port = 0;
let bots = 0;

beforeAll(async () => {
  const listen = (hostname: string, at: number) =>
    Bun.serve({
      hostname,
      port: at,
      fetch: (request) => {
        requests.push(`${hostname} ${request.headers.get("host")} ${new URL(request.url).pathname}`);
        return Response.json({ content: "should never be asked" });
      },
    });
  const v4 = listen("127.0.0.1", 0);
  port = v4.port!;
  receivers = [v4, listen("::1", port)];
  org = await seedOrg({ env: { PARLEY_OUTBOX_RETRY_BASE_SECONDS: "1", PARLEY_OUTBOX_RETRY_MAX_SECONDS: "1" } });
}, 30_000);

afterAll(async () => {
  await org?.server.dispose();
  for (const receiver of receivers) receiver.stop(true);
});

const notificationBotId = () => queryServer<{ id: number }>(org.server, "SELECT id FROM users WHERE email LIKE 'notification-bot@%'")[0].id;

/** What the notification bot told the owner of `botId`, once it did. */
async function noticeAbout(botId: number, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [notice] = queryServer<{ content: string }>(org.server, "SELECT content FROM messages WHERE sender_id = ? AND content LIKE ?", notificationBotId(), `%|${botId}**%`);
    if (notice) return notice.content;
    if (Date.now() > deadline) throw new Error(`The owner of bot ${botId} was never told`);
    await Bun.sleep(50);
  }
}

/**
 * A bot whose service URL is `url` at delivery: created with a harmless address, then given
 * `url` in the database, as a URL saved while the rule was different (PARLEY_WEBHOOK_ALLOW_LOOPBACK
 * set then) would be. The check at delivery is the one that must hold.
 */
async function botWithStoredUrl(url: string): Promise<number> {
  const bot = ok(await org.member.api.post("/bots", { full_name: `Stored Hook ${++bots}`, short_name: `stored-hook-${bots}`, bot_type: 3, payload_url: JSON.stringify("http://192.0.2.1/placeholder") }));
  editServerDatabase(org.server, "UPDATE bot_services SET base_url = ? WHERE bot_id = ?", url, bot.user_id);
  return bot.user_id;
}

const attemptsOf = (botId: number) => botOutboxRows<{ attempts: number; gave_up_at: number | null }>(org.server, "attempts, gave_up_at", botId, "kind = 'outgoing_webhook'");

describe("a server without PARLEY_WEBHOOK_ALLOW_LOOPBACK", () => {
  test("refuses a bot whose URL is local in any spelling when it is created, saying why", async () => {
    for (const url of LOCAL_SPELLINGS(port)) {
      const refused = await org.member.api.post("/bots", { full_name: `Local Hook ${++bots}`, short_name: `local-hook-${bots}`, bot_type: 3, payload_url: JSON.stringify(url) });
      expectError(refused, "BAD_REQUEST");
      expect([url, refused.body.msg]).toEqual([url, expect.stringContaining("resolves to a local address")]);
      expect(refused.body.msg).toContain("refused unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set");
    }
    expect(requests).toEqual([]);
  });

  test("never calls a local address at delivery, whatever its spelling, and tells the bot's owner why", async () => {
    const spellings = LOCAL_SPELLINGS(port);
    const botIds: number[] = [];
    for (const url of spellings) {
      const botId = await botWithStoredUrl(url);
      botIds.push(botId);
      await sendOk(org.member2, directMessage([botId], "hello"));
    }
    // Every notification finished (sent, or given up) before the receivers are asked.
    const finished = () => botIds.every((botId) => botOutboxRows<{ done: number }>(org.server, "sent_at IS NOT NULL OR gave_up_at IS NOT NULL AS done", botId, "kind = 'outgoing_webhook'")[0]?.done === 1);
    const deadline = Date.now() + 30_000;
    while (!finished() && Date.now() < deadline) await Bun.sleep(50);
    expect(requests).toEqual([]);
    for (const [i, botId] of botIds.entries()) {
      const notice = await noticeAbout(botId);
      expect([spellings[i], notice]).toEqual([spellings[i], expect.stringContaining("The webhook was not sent: the URL's host")]);
      expect(notice).toContain("refused unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set");
      // Refused for good at the first try: not retried.
      expect(attemptsOf(botId)).toEqual([{ attempts: 1, gave_up_at: expect.any(Number) }]);
    }
  }, 60_000);

  test("never calls this server itself, in any spelling of its address", async () => {
    const own = Number(new URL(org.server.url).port);
    for (const url of [`${org.server.url}/api/v1/users/me`, `http://x.localhost:${own}/api/v1/users/me`, `http://[::ffff:7f00:1]:${own}/`]) {
      const refused = await org.member.api.post("/bots", { full_name: `Self Hook ${++bots}`, short_name: `self-hook-${bots}`, bot_type: 3, payload_url: url });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toContain("points at this server itself");
      const botId = await botWithStoredUrl(url);
      await sendOk(org.member2, directMessage([botId], "hello"));
      expect(await noticeAbout(botId)).toContain("The webhook was not sent: the URL points at this server itself.");
    }
  });

  test("a name that does not resolve is refused with the name, and not retried", async () => {
    const bot = ok(await org.member.api.post("/bots", { full_name: `Nowhere Hook ${++bots}`, short_name: `nowhere-hook-${bots}`, bot_type: 3, payload_url: "http://nowhere.invalid/hook" }));
    await sendOk(org.member2, directMessage([bot.user_id], "anyone?"));
    expect(await noticeAbout(bot.user_id)).toContain("The webhook was not sent: the host name 'nowhere.invalid' does not resolve.");
    expect(attemptsOf(bot.user_id)).toEqual([{ attempts: 1, gave_up_at: expect.any(Number) }]);
  });
});
