import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, uniqueName } from "../helpers/channels";
import { editServerDatabase } from "../helpers/inProcess";
import { botOutboxRowsAsync } from "../helpers/outboxRows";
import { queryServerAsync } from "../helpers/queryAsync";
import { type Org, type Person, expectError, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";

/**
 * Outgoing-webhook bots (spec 4.20, 5.5): a real receiver on loopback, the server's outbox
 * retrying every second, three tries before the owner is told.
 */

interface Received {
  path: string;
  headers: Headers;
  /** Parsed JSON (native interface) or form fields (Slack interface). */
  body: any;
}

type Answer = (request: Received, count: number) => Response | Promise<Response>;

let org: Org;
let receiver: ReturnType<typeof Bun.serve>;
const received: Received[] = [];
const answers = new Map<string, Answer>();

const hookUrl = (name: string) => `http://127.0.0.1:${receiver.port}/${name}`;
const hits = (name: string) => received.filter((request) => request.path === `/${name}`);

async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

interface WebhookBot {
  id: number;
  email: string;
  name: string;
  token: string;
}

let botCounter = 0;
/** An outgoing-webhook bot owned by `owner`, posting to the receiver path of the same name. */
async function webhookBot(owner: Person, answer: Answer, options: { interfaceType?: number; url?: string } = {}): Promise<WebhookBot> {
  const name = `hook${++botCounter}`;
  answers.set(`/${name}`, answer);
  const body = ok(await owner.api.post("/bots", { full_name: `Hook Bot ${botCounter}`, short_name: name, bot_type: 3, payload_url: JSON.stringify(options.url ?? hookUrl(name)), interface_type: options.interfaceType ?? 1 }));
  const bots = ok(await owner.api.get("/bots")).bots as any[];
  const token = bots.find((bot) => bot.user_id === body.user_id).services[0].token;
  return { id: body.user_id, email: body.email ?? `${name}-bot@localhost`, name, token: token };
}

const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

// Read without holding up this process, where the receiver answers the server (queryAsync.ts).
const messagesFrom = (senderId: number) =>
  queryServerAsync<{ id: number; content: string; topic: string; recipient_id: number; client: string; channel_id: number | null }>(org.server, "SELECT id, content, topic, recipient_id, client, channel_id FROM messages WHERE sender_id = ? ORDER BY id", senderId);
let notificationBot: number | undefined;
const notificationBotId = async () => (notificationBot ??= (await queryServerAsync<{ id: number }>(org.server, "SELECT id FROM users WHERE email LIKE 'notification-bot@%'"))[0].id);
const directRecipientOf = async (userIds: number[]) => {
  const rows = await queryServerAsync<{ recipient_id: number; members: string }>(org.server, {
    sqlite: "SELECT recipient_id, group_concat(user_id) AS members FROM (SELECT * FROM recipient_users ORDER BY user_id) GROUP BY recipient_id",
    postgres: "SELECT recipient_id, string_agg(user_id::text, ',' ORDER BY user_id) AS members FROM recipient_users GROUP BY recipient_id",
  });
  return rows.find((row) => row.members === [...userIds].sort((a, b) => a - b).join(","))?.recipient_id;
};
const notificationBotMessages = async () => messagesFrom(await notificationBotId());
/** The rows, or false while there are none (for waitFor). */
const nonEmpty = <T>(rows: T[]) => rows.length > 0 && rows;

beforeAll(async () => {
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const text = await request.text();
      const body = request.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : Object.fromEntries(new URLSearchParams(text));
      const entry = { path, headers: request.headers, body };
      received.push(entry);
      const answer = answers.get(path);
      return answer ? answer(entry, hits(path.slice(1)).length) : json({ response_not_required: true });
    },
  });
  org = await seedOrg({
    env: {
      PARLEY_WEBHOOK_ALLOW_LOOPBACK: "1",
      PARLEY_OUTBOX_RETRY_BASE_SECONDS: "1",
      PARLEY_OUTBOX_RETRY_MAX_SECONDS: "1",
      PARLEY_OUTBOX_SWEEP_SECONDS: "0",
      PARLEY_WEBHOOK_MAX_ATTEMPTS: "3",
      PARLEY_WEBHOOK_TIMEOUT_SECONDS: "1",
    },
  });
}, 30_000);

afterAll(async () => {
  await org?.server.dispose();
  receiver?.stop(true);
});

describe("a mention in a channel", () => {
  test("posts the spec 4.20 payload and the bot's answer becomes its reply in the topic", async () => {
    const bot = await webhookBot(org.member, () => json({ content: "Hello from the service" }));
    const channel = uniqueName();
    const channelId = await createChannel(org, org.member2, {}, channel);
    const content = `@**Hook Bot ${botCounter}** what is **up**?`;
    const sent = await sendOk(org.member2, channelMessage(channelId, "questions", content));

    const [request] = await waitFor(() => hits(bot.name).length > 0 && hits(bot.name), "the webhook");
    expect(request.headers.get("content-type")).toStartWith("application/json");
    expect(request.body).toMatchObject({ bot_email: bot.email, bot_full_name: `Hook Bot ${botCounter}`, data: content, trigger: "mention", token: bot.token });
    expect(Object.keys(request.body).sort()).toEqual(["bot_email", "bot_full_name", "data", "message", "token", "trigger"]);
    const message = request.body.message;
    expect(message).toMatchObject({
      id: sent.id,
      type: "stream",
      content,
      content_type: "text/x-markdown",
      subject: "questions",
      stream_id: channelId,
      display_recipient: channel,
      sender_id: org.member2.id,
      sender_email: org.member2.email,
      sender_full_name: "Max Member",
      client: expect.any(String),
      is_me_message: false,
      reactions: [],
      submessages: [],
      topic_links: [],
    });
    expect(message.rendered_content).toContain("<strong>up</strong>");
    expect(typeof message.timestamp).toBe("number");
    expect(typeof message.recipient_id).toBe("number");
    expect(typeof message.avatar_url).toBe("string");
    expect(message.flags).toBeUndefined();

    const [reply] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply");
    expect(reply).toMatchObject({ content: "Hello from the service", topic: "questions", channel_id: channelId, client: "OutgoingWebhookResponse" });
    // The bot's own reply triggers nothing: one request in all.
    await Bun.sleep(300);
    expect(hits(bot.name)).toHaveLength(1);
  });

  test("response_not_required, an empty answer, or an empty content post nothing", async () => {
    for (const answer of [{ response_not_required: true, content: "ignored" }, "", { content: "  " }, {}]) {
      const bot = await webhookBot(org.member, () => (answer === "" ? new Response("") : json(answer)));
      const channelId = await createChannel(org, org.member);
      await sendOk(org.member, channelMessage(channelId, "t", `@**Hook Bot ${botCounter}** hi`));
      await waitFor(() => hits(bot.name).length > 0, "the webhook");
      await Bun.sleep(300);
      expect(await messagesFrom(bot.id)).toEqual([]);
    }
  });

  test("a silent mention, a message without mention, and a bot's message send nothing", async () => {
    const bot = await webhookBot(org.member, () => json({ content: "no" }));
    const channelId = await createChannel(org, org.member);
    await sendOk(org.member, channelMessage(channelId, "t", "an ordinary message"));
    await sendOk(org.member, channelMessage(channelId, "t", `@_**Hook Bot ${botCounter}** silently`));
    await sendOk(org.bot, channelMessage(channelId, "t", `@**Hook Bot ${botCounter}** from a bot`));
    // A marker: the next webhook of another bot shows the outbox ran past these sends.
    const marker = await webhookBot(org.member, () => json({ response_not_required: true }));
    await sendOk(org.member, channelMessage(channelId, "t", `@**Hook Bot ${botCounter}** marker`));
    await waitFor(() => hits(marker.name).length > 0, "the marker webhook");
    expect(hits(bot.name)).toEqual([]);
    expect(await botOutboxRowsAsync(org.server, "*", bot.id, "kind = 'outgoing_webhook'")).toEqual([]);
  });
});

describe("a direct message", () => {
  test("posts with trigger direct_message, and the reply goes to the whole conversation", async () => {
    const bot = await webhookBot(org.member, (request) => json({ content: `echo: ${request.body.data}` }));
    await sendOk(org.member2, directMessage([bot.id, org.guest.id], "ping"));
    const [request] = await waitFor(() => hits(bot.name).length > 0 && hits(bot.name), "the webhook");
    expect(request.body).toMatchObject({ trigger: "direct_message", data: "ping", token: bot.token });
    expect(request.body.message).toMatchObject({ type: "private", subject: "", content: "ping" });
    expect(request.body.message.display_recipient.map((user: any) => user.id)).toEqual([org.member2.id, org.guest.id, bot.id].sort((a, b) => a - b));
    const [reply] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply");
    expect(reply.content).toBe("echo: ping");
    expect(reply.recipient_id).toBe((await directRecipientOf([org.member2.id, org.guest.id, bot.id]))!);
  });
});

describe("a service on this machine (PARLEY_WEBHOOK_ALLOW_LOOPBACK)", () => {
  test("is reached by a name under localhost, which is never looked up, with the name in Host", async () => {
    let host: string | null | undefined;
    const bot = await webhookBot(org.member, (request) => {
      host = request.headers.get("host");
      return json({ content: "local name answered" });
    }, { url: `http://hooks.localhost.:${receiver.port}/hook${botCounter + 1}` });
    await sendOk(org.member2, directMessage([bot.id], "over a local name"));
    const [reply] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply");
    expect(reply.content).toBe("local name answered");
    expect(host).toBe(`hooks.localhost.:${receiver.port}`);
  });
});

describe("failures", () => {
  test("a service failing once is tried again, and its answer posted once", async () => {
    const bot = await webhookBot(org.member, (_request, count) => (count === 1 ? new Response("down", { status: 503 }) : json({ content: "back again" })));
    await sendOk(org.member2, directMessage([bot.id], "are you there?"));
    const replies = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply");
    expect(replies.map((reply) => reply.content)).toEqual(["back again"]);
    const requests = hits(bot.name);
    expect(requests).toHaveLength(2);
    // Both tries carry the same delivery ID, so a service may drop a repeat.
    expect(requests[0].headers.get("x-parley-delivery")).toBe(requests[1].headers.get("x-parley-delivery"));
    expect(requests[1].body).toEqual(requests[0].body);
  });

  test("a service that always fails is tried three times; the owner is told and the bot says so in the conversation", async () => {
    const owner = org.member;
    const bot = await webhookBot(owner, () => new Response("boom", { status: 500 }));
    const before = (await notificationBotMessages()).length;
    const sent = await sendOk(org.member2, directMessage([bot.id], "help"));
    const notices = await waitFor(async () => (await notificationBotMessages()).slice(before).filter((message) => message.content.includes(`bot @_**Hook Bot`)).length > 0 && (await notificationBotMessages()).slice(before), "the owner's notice", 15_000);
    expect(hits(bot.name)).toHaveLength(3);
    const notice = notices.find((message) => message.content.includes(`@_**Hook Bot ${botCounter}|${bot.id}**`))!;
    expect(notice.content).toContain(`/near/${sent.id}`);
    expect(notice.content).toContain("status code *500*");
    expect(notice.content).toContain("boom");
    expect(notice.recipient_id).toBe((await directRecipientOf([await notificationBotId(), owner.id]))!);
    const [failure] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the failure message");
    expect(failure.content).toBe("Failure! Third party responded with 500");
    expect(failure.recipient_id).toBe((await directRecipientOf([org.member2.id, bot.id]))!);
  }, 20_000);

  test("a service nobody listens for is retried, then the bot is unavailable and the owner told", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}/nobody`;
    closed.stop(true);
    const bot = await webhookBot(org.member, () => json({}), { url });
    const before = (await notificationBotMessages()).length;
    await sendOk(org.member2, directMessage([bot.id], "anyone?"));
    const notice = await waitFor(async () => (await notificationBotMessages()).slice(before).find((message) => message.content.includes(`|${bot.id}**`)), "the owner's notice", 15_000);
    expect(notice.content).toContain("exception occurred");
    const attempts = await botOutboxRowsAsync<{ attempts: number; gave_up_at: number | null }>(org.server, "attempts, gave_up_at", bot.id, "kind = 'outgoing_webhook'");
    expect(attempts).toEqual([{ attempts: 3, gave_up_at: expect.any(Number) }]);
    const [failure] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the failure message");
    expect(failure.content).toBe("Failure! Bot is unavailable");
  }, 20_000);

  test("a service slower than the timeout is given up on for that try, and tried again", async () => {
    const bot = await webhookBot(org.member, async (_request, count) => {
      if (count === 1) await Bun.sleep(1500);
      return json({ content: `answer ${count}` });
    });
    await sendOk(org.member2, directMessage([bot.id], "quick?"));
    const replies = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply", 15_000);
    await Bun.sleep(300);
    // The slow first answer came after the timeout and was dropped: only the second is posted.
    expect((await messagesFrom(bot.id)).map((reply) => reply.content)).toEqual(["answer 2"]);
    expect(replies).toHaveLength(1);
  }, 20_000);

  test("a 4xx answer is not retried; the owner is told at once", async () => {
    const bot = await webhookBot(org.member, () => new Response("no such hook", { status: 404 }));
    const before = (await notificationBotMessages()).length;
    await sendOk(org.member2, directMessage([bot.id], "hello"));
    await waitFor(async () => (await notificationBotMessages()).slice(before).some((message) => message.content.includes(`|${bot.id}**`)), "the owner's notice");
    expect(hits(bot.name)).toHaveLength(1);
  });

  test("an answer that is not JSON is reported in the conversation and to the owner", async () => {
    const bot = await webhookBot(org.member, () => new Response("<html>oops</html>"));
    const before = (await notificationBotMessages()).length;
    await sendOk(org.member2, directMessage([bot.id], "hello"));
    const [failure] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the failure message");
    expect(failure.content).toBe("Failure! Invalid JSON in response");
    const notice = await waitFor(async () => (await notificationBotMessages()).slice(before).find((message) => message.content.includes(`|${bot.id}**`)), "the owner's notice");
    expect(notice.content).toContain("Invalid JSON in response");
    expect(hits(bot.name)).toHaveLength(1);
  });

  test("a service URL pointing at this server itself is refused at creation, and never called when stored", async () => {
    for (const url of [`${org.server.url}/api/v1/users/me`, `http://self.localhost:${new URL(org.server.url).port}/api/v1/users/me`]) {
      const refused = await org.member.api.post("/bots", { full_name: "Self Hook", short_name: "self-hook", bot_type: 3, payload_url: JSON.stringify(url) });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe(`payload_url '${url}' is refused: the URL points at this server itself.`);
      // Saved before the rule existed, or by hand: refused at delivery too.
      const bot = await webhookBot(org.member, () => json({}));
      editServerDatabase(org.server, "UPDATE bot_services SET base_url = ? WHERE bot_id = ?", url, bot.id);
      const before = (await notificationBotMessages()).length;
      await sendOk(org.member2, directMessage([bot.id], "hello"));
      const notice = await waitFor(async () => (await notificationBotMessages()).slice(before).find((message) => message.content.includes(`|${bot.id}**`)), "the owner's notice");
      expect(notice.content).toContain("The webhook was not sent: the URL points at this server itself.");
    }
  });
});

describe("a bot that changed", () => {
  test("a bot deactivated before a retry is not called again, and nobody is told", async () => {
    // The owner deactivates the bot while its first try is being answered, so the deactivation
    // is committed before the retry however slow the machine (a retry comes a second later).
    let deactivated: ReturnType<typeof org.member.api.delete> | undefined;
    const bot: WebhookBot = await webhookBot(org.member, async () => {
      deactivated ??= org.member.api.delete(`/bots/${bot.id}`);
      ok(await deactivated);
      return new Response("down", { status: 503 });
    });
    const before = (await notificationBotMessages()).length;
    await sendOk(org.member2, directMessage([bot.id], "hello?"));
    await waitFor(() => hits(bot.name).length === 1, "the first try");
    await deactivated;
    await waitFor(async () => (await botOutboxRowsAsync<{ sent_at: number | null }>(org.server, "sent_at", bot.id))[0]?.sent_at, "the item to be closed", 5_000);
    expect(hits(bot.name)).toHaveLength(1);
    expect(await messagesFrom(bot.id)).toEqual([]);
    expect((await notificationBotMessages()).slice(before).filter((message) => message.content.includes(`|${bot.id}**`))).toEqual([]);
  });

  test("a changed service URL is used for a retry", async () => {
    const bot = await webhookBot(org.member, () => new Response("down", { status: 503 }));
    answers.set("/moved", () => json({ content: "from the new address" }));
    await sendOk(org.member2, directMessage([bot.id], "where are you?"));
    await waitFor(() => hits(bot.name).length === 1, "the first try");
    // No endpoint edits a bot's service yet; the operator's change goes to the database.
    editServerDatabase(org.server, "UPDATE bot_services SET base_url = ? WHERE bot_id = ?", hookUrl("moved"), bot.id);
    const [reply] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply", 5_000);
    expect(reply.content).toBe("from the new address");
    expect(hits("moved")).toHaveLength(1);
  });
});

describe("the Slack-compatible interface", () => {
  test("posts Slack's form fields and replies with the answer's text", async () => {
    const bot = await webhookBot(org.member, () => json({ text: "slack says hi" }), { interfaceType: 2 });
    const channel = uniqueName();
    const channelId = await createChannel(org, org.member2, {}, channel);
    const sent = await sendOk(org.member2, channelMessage(channelId, "slack", `@**Hook Bot ${botCounter}** hi`));
    const [request] = await waitFor(() => hits(bot.name).length > 0 && hits(bot.name), "the webhook");
    expect(request.headers.get("content-type")).toStartWith("application/x-www-form-urlencoded");
    expect(request.body).toMatchObject({
      token: bot.token,
      channel_id: `C${channelId}`,
      channel_name: channel,
      user_id: `U${org.member2.id}`,
      user_name: "Max Member",
      text: `@**Hook Bot ${botCounter}** hi`,
      trigger_word: "mention",
      service_id: String(bot.id),
    });
    expect(Number(request.body.timestamp)).toBeGreaterThan(0);
    const [reply] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply");
    expect(reply).toMatchObject({ content: "slack says hi", topic: "slack" });
    expect(sent.id).toBeLessThan(reply.id);
  });

  test("a direct message is answered with the reference's failure, without a request", async () => {
    const bot = await webhookBot(org.member, () => json({ text: "never" }), { interfaceType: 2 });
    await sendOk(org.member2, directMessage([bot.id], "hi"));
    const [reply] = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the failure message");
    expect(reply.content).toBe("Failure! Slack outgoing webhooks don't support direct messages.");
    expect(hits(bot.name)).toEqual([]);
  });
});

describe("durability", () => {
  test("a delivery pending when the server is killed goes out after the restart, once", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The first try hangs until the kill, so the item is pending (not marked sent) at the crash.
    const bot = await webhookBot(org.member, async (_request, count) => {
      if (count === 1) {
        await held;
        return new Response("gone", { status: 503 });
      }
      return json({ content: "after the restart" });
    });
    await sendOk(org.member2, directMessage([bot.id], "survive this"));
    await waitFor(() => hits(bot.name).length === 1, "the first try");
    await org.server.restart("SIGKILL");
    release();
    const replies = await waitFor(async () => nonEmpty(await messagesFrom(bot.id)), "the reply after the restart", 15_000);
    await Bun.sleep(500);
    expect((await messagesFrom(bot.id)).map((reply) => reply.content)).toEqual(["after the restart"]);
    expect(replies).toHaveLength(1);
    expect(hits(bot.name).length).toBe(2);
  }, 30_000);
});
