import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { refusedWebhookUrl } from "../../src/outbox/webhookUrls";
import { queryServer } from "../helpers/channels";
import { type Org, ok, seedOrg } from "../helpers/seed";
import { directMessage, sendOk } from "../helpers/sending";

/**
 * Which service URLs an outgoing webhook may reach (docs/FEATURES.md, "Outgoing webhooks"): over HTTP on a
 * server without PARLEY_WEBHOOK_ALLOW_LOOPBACK, and the rule itself case by case.
 */

describe("a server without PARLEY_WEBHOOK_ALLOW_LOOPBACK", () => {
  let org: Org;
  let receiver: ReturnType<typeof Bun.serve>;
  let requests = 0;

  beforeAll(async () => {
    receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => {
        requests++;
        return Response.json({ content: "should never be asked" });
      },
    });
    org = await seedOrg();
  }, 30_000);

  afterAll(async () => {
    await org?.server.dispose();
    receiver?.stop(true);
  });

  test("never calls a loopback service, and tells the bot's owner why", async () => {
    const body = ok(await org.member.api.post("/bots", { full_name: "Local Hook", short_name: "local-hook", bot_type: 3, payload_url: `http://127.0.0.1:${receiver.port}/hook` }));
    await sendOk(org.member2, directMessage([body.user_id], "hello"));
    const notifier = queryServer<{ id: number }>(org.server, "SELECT id FROM users WHERE email LIKE 'notification-bot@%'")[0].id;
    const deadline = Date.now() + 10_000;
    let notice: { content: string } | undefined;
    while (!notice && Date.now() < deadline) {
      notice = queryServer<{ content: string }>(org.server, "SELECT content FROM messages WHERE sender_id = ? AND content LIKE ?", notifier, `%|${body.user_id}**%`)[0];
      if (!notice) await Bun.sleep(50);
    }
    expect(notice?.content).toContain("resolves to a local address (127.0.0.1)");
    expect(notice?.content).toContain("PARLEY_WEBHOOK_ALLOW_LOOPBACK");
    expect(requests).toBe(0);
    // Refused for good at the first try: not retried.
    expect(queryServer(org.server, "SELECT attempts FROM outbox WHERE kind = 'outgoing_webhook'")).toEqual([{ attempts: 1 }]);
  });
});

describe("the URL rule", () => {
  const policy = { allowLoopback: false, ownPort: 8080, realmUrl: "https://chat.example.com" };
  const allowed = { ...policy, allowLoopback: true };

  test("refuses loopback, unspecified and link-local addresses unless loopback is allowed", async () => {
    for (const url of ["http://127.0.0.1:9000/", "http://127.1.2.3/", "http://[::1]:9000/", "http://localhost:9000/", "http://0.0.0.0:9000/", "http://169.254.169.254/latest/meta-data", "http://[fe80::1]/", "http://[::ffff:127.0.0.1]:9000/"]) {
      expect(await refusedWebhookUrl(url, policy)).toContain("local address");
      expect(await refusedWebhookUrl(url, allowed)).toBeNull();
    }
  });

  test("refuses this server itself, even where loopback is allowed", async () => {
    for (const url of ["http://127.0.0.1:8080/api/v1/users", "http://localhost:8080/", "https://chat.example.com/api/v1/messages", "https://CHAT.example.com:443/"]) {
      expect(await refusedWebhookUrl(url, allowed)).toContain("this server itself");
    }
  });

  test("allows public and private-network addresses, and other ports of the organization's host", async () => {
    for (const url of ["http://10.1.2.3:8080/hook", "http://192.168.1.20/hook", "https://93.184.215.14/hook", "http://chat.example.com:9000/hook"]) {
      expect(await refusedWebhookUrl(url, policy)).toBeNull();
    }
  });
});
