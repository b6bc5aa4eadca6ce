import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createChannel, queryServer, uniqueName } from "../helpers/channels";
import { type Org, type Person, ok, seedOrg } from "../helpers/seed";
import { channelMessage, directMessage, sendOk } from "../helpers/sending";
import { type ReceivedMail, SmtpSink } from "../helpers/smtpSink";

/**
 * Missed-message e-mail: what would notify a person and is still unread after their batching
 * period (capped at 2 s here by PARLEY_MISSED_MESSAGE_EMAIL_DELAY_SECONDS) is mailed, one e-mail
 * per conversation, to a real SMTP sink on loopback.
 */

const DELAY_SECONDS = 2;
let org: Org;
let sink: SmtpSink;
/** The organization's URL, which links in e-mails start with (not the test server's address). */
let realmUrl: string;
/** A link from an e-mail, pointed at the test server. */
const local = (link: string) => link.replace(realmUrl, org.server.url);

beforeAll(async () => {
  sink = await SmtpSink.start();
  org = await seedOrg({
    env: sink.env({ PARLEY_MISSED_MESSAGE_EMAIL_DELAY_SECONDS: String(DELAY_SECONDS), PARLEY_MISSED_MESSAGE_EMAIL_CHECK_SECONDS: "1", PARLEY_OUTBOX_SWEEP_SECONDS: "1", PARLEY_OUTBOX_RETRY_BASE_SECONDS: "1" }),
  });
  realmUrl = ok(await org.anon.get("/server_settings")).realm_url;
}, 60_000);
afterAll(async () => {
  await org.server.dispose();
  await sink.stop();
});

// The header's value may be folded onto the next line.
const UNSUBSCRIBE_HEADER = /^List-Unsubscribe:\s+<([^>]+)>/m;
const mailsTo = (person: Person) => sink.received.filter((mail) => mail.recipients.includes(person.email));

async function waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Waits for the next e-mail to `person` after the `before` they had. */
const nextMail = (person: Person, before: number): Promise<ReceivedMail> => waitFor(() => mailsTo(person)[before], `an e-mail to ${person.email}`);
const setSettings = async (person: Person, settings: Record<string, unknown>) => ok(await person.api.patch("/settings", settings));
const settingOf = (person: Person, name: string) => {
  const [row] = queryServer<{ settings: string | Record<string, unknown> }>(org.server, "SELECT settings FROM users WHERE id = ?", person.id);
  const settings = typeof row.settings === "string" ? JSON.parse(row.settings) : row.settings;
  return settings[name];
};

describe("what is mailed", () => {
  test("direct messages left unread are mailed once the period is over, together, with a link back and one-click unsubscribe", async () => {
    const before = mailsTo(org.member2).length;
    const started = Date.now();
    const first = await sendOk(org.member, directMessage([org.member2.id], "lunch at **noon**?"));
    await sendOk(org.member, directMessage([org.member2.id], "or at one"));
    const mail = await nextMail(org.member2, before);
    // Due times are whole seconds: at most a second early of the period.
    expect(Date.now() - started).toBeGreaterThanOrEqual((DELAY_SECONDS - 1) * 1000);
    expect(mail.subject).toBe("DMs with Mel Member");
    expect(mail.text).toContain("lunch at noon?");
    expect(mail.text).toContain("or at one");
    expect(mail.html).toContain("<strong>noon</strong>");
    expect(mail.text).toContain(`${realmUrl}/#narrow/dm/${org.member.id}/near/${first.id}`);
    const unsubscribe = UNSUBSCRIBE_HEADER.exec(mail.raw)?.[1];
    expect(unsubscribe).toStartWith(`${realmUrl}/accounts/unsubscribe/missed_messages/`);
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(mail.text).toContain(unsubscribe!);
    // One e-mail for both, and nothing left waiting.
    await Bun.sleep(1500);
    expect(mailsTo(org.member2).length).toBe(before + 1);
    expect(queryServer(org.server, "SELECT id FROM missed_message_emails WHERE user_id = ?", org.member2.id)).toEqual([]);
  });

  test("a message read before then is not mailed", async () => {
    const before = mailsTo(org.moderator).length;
    const read = await sendOk(org.member, directMessage([org.moderator.id], "read me now"));
    ok(await org.moderator.api.post("/messages/flags", { messages: JSON.stringify([read.id]), op: "add", flag: "read" }));
    // Sent after it, mailed no earlier: once this one has arrived, the other would have too.
    await sendOk(org.owner, directMessage([org.moderator.id], "but not this one"));
    const mail = await nextMail(org.moderator, before);
    expect(mail.text).toContain("but not this one");
    await Bun.sleep(1500);
    expect(mailsTo(org.moderator).map((one) => one.text).filter((text) => text.includes("read me now"))).toEqual([]);
  });

  test("a mention in a channel is mailed with the channel and topic; a plain channel message is not", async () => {
    const channel = uniqueName("mail");
    const channelId = await createChannel(org, org.member, { principals: [org.member.id, org.guest.id] }, channel);
    const before = mailsTo(org.guest).length;
    await sendOk(org.member, channelMessage(channelId, "plans", "nothing for you here"));
    const mention = await sendOk(org.member, channelMessage(channelId, "plans", "@**Gus Guest** can you come?"));
    const mail = await nextMail(org.guest, before);
    expect(mail.subject).toBe(`#${channel} > plans`);
    expect(mail.text).toContain("can you come?");
    expect(mail.text).not.toContain("nothing for you here");
    expect(mail.text).toContain(`/near/${mention.id}`);
  });

  test("where the organization keeps message content out of e-mails, the e-mail says who and where only", async () => {
    ok(await org.owner.api.patch("/realm", { message_content_allowed_in_email_notifications: false }));
    try {
      const before = mailsTo(org.member2).length;
      await sendOk(org.member, directMessage([org.member2.id], "the secret plan"));
      const mail = await nextMail(org.member2, before);
      expect(mail.subject).toBe("DMs with Mel Member");
      expect(mail.text).not.toContain("secret");
      expect(mail.html).not.toContain("secret");
      expect(mail.text).toContain("not shown in e-mails");
    } finally {
      ok(await org.owner.api.patch("/realm", { message_content_allowed_in_email_notifications: true }));
    }
  });

  test("enable_offline_email_notifications off: nothing is mailed", async () => {
    await setSettings(org.admin, { enable_offline_email_notifications: false });
    const before = mailsTo(org.admin).length;
    try {
      await sendOk(org.member, directMessage([org.admin.id], "you will not hear of this"));
      await Bun.sleep(DELAY_SECONDS * 1000 + 2500);
      expect(mailsTo(org.admin).length).toBe(before);
    } finally {
      await setSettings(org.admin, { enable_offline_email_notifications: true });
    }
  });
});

describe("unsubscribing", () => {
  test("the link asks first; its button, or a mail client's one-click POST, turns the e-mails off", async () => {
    const before = mailsTo(org.member).length;
    await sendOk(org.member2, directMessage([org.member.id], "ping"));
    const mail = await nextMail(org.member, before);
    const link = local(UNSUBSCRIBE_HEADER.exec(mail.raw)![1]);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Stop these e-mails");
    expect(settingOf(org.member, "enable_offline_email_notifications")).not.toBe(false);
    // A token that is not genuine changes nothing.
    const forged = link.replace(/\.[^.]+$/, `.${"A".repeat(43)}`);
    expect((await fetch(forged, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(404);
    expect((await fetch(forged)).status).toBe(404);
    expect(settingOf(org.member, "enable_offline_email_notifications")).not.toBe(false);
    const done = await fetch(link, { method: "POST", body: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(done.status).toBe(200);
    expect(settingOf(org.member, "enable_offline_email_notifications")).toBe(false);
    // And so no e-mail for the next one.
    const after = mailsTo(org.member).length;
    await sendOk(org.member2, directMessage([org.member.id], "pong"));
    await Bun.sleep(DELAY_SECONDS * 1000 + 2500);
    expect(mailsTo(org.member).length).toBe(after);
    await setSettings(org.member, { enable_offline_email_notifications: true });
  });
});
