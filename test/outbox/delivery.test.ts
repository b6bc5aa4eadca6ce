import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SmtpSink } from "../helpers/smtpSink";
import { createPerson, expectError, ok } from "../helpers/seed";
import { FAST_OUTBOX, type MailOrg, countInLog, deactivateWithMail, mailOrg, waitForLog } from "./helpers";

setDefaultTimeout(60_000);

describe("the deactivation e-mail, delivered after commit (STARTTLS)", () => {
  let sink: SmtpSink;
  let org: MailOrg;
  beforeAll(async () => {
    sink = await SmtpSink.start({ security: "starttls" });
    org = await mailOrg(sink.env(FAST_OUTBOX));
  });
  afterAll(async () => {
    await org.server.dispose();
    await sink.stop();
  });

  test("goes to the person, with the organization, the comment and a stable Message-ID, over TLS", async () => {
    const to = await deactivateWithMail(org, "  Farewell, and thanks!  ");
    const [mail] = await sink.waitFor(1);
    expect(mail.recipients).toEqual([to]);
    expect(mail.to).toContain(to);
    expect(mail.from).toBe(`"Parley" <noreply@parley.test>`);
    expect(mail.sender).toBe("noreply@parley.test");
    expect(mail.subject).toBe("Notification of account deactivation on Test Org");
    expect(mail.text).toContain(`Your account ${to} in the Test Org organization`);
    expect(mail.text).toContain("The administrators provided the following comment:\n\nFarewell, and thanks!");
    expect(mail.messageId).toMatch(/^<outbox\.\d+\.\d+@parley\.test>$/);
    // The sink offers STARTTLS without requiring it: Parley upgraded on its own.
    expect(mail.secure).toBe(true);
    expect(mail.user).toBeNull();
    await waitForLog(org.server, /outbox: item \d+ \(account_deactivated_email\) delivered on try 1/);
  });

  test("an empty comment sends the mail without the comment paragraph", async () => {
    const before = sink.received.length;
    const to = await deactivateWithMail(org, "");
    const mail = (await sink.waitFor(before + 1))[before];
    expect(mail.recipients).toEqual([to]);
    expect(mail.text).not.toContain("comment");
  });

  test("refused deactivations send nothing; no comment asks for no mail", async () => {
    const before = sink.received.length;
    // Refused inside the transaction: the last owner cannot be deactivated.
    const refused = await org.owner.api.delete(`/users/${org.owner.id}`, { deactivation_notification_comment: "Bye" });
    expect(refused.status).toBe(400);
    // Refused before the transaction: a comment too long.
    const person = await createPerson(org.owner, org.anon, "Kept Person");
    expectError(await org.owner.api.delete(`/users/${person.id}`, { deactivation_notification_comment: "x".repeat(2001) }), "BAD_REQUEST", 400);
    // Accepted without a comment: no mail asked for.
    ok(await org.owner.api.delete(`/users/${person.id}`));
    // A marker after them all: once it arrived, nothing else did.
    const marker = await deactivateWithMail(org, "marker");
    const all = await sink.waitFor(before + 1);
    await Bun.sleep(500);
    expect(sink.received.length).toBe(before + 1);
    expect(all[before].recipients).toEqual([marker]);
    expect(sink.received.map((mail) => mail.recipients[0])).not.toContain(org.owner.email);
  });
});

describe("retries and giving up", () => {
  let sink: SmtpSink;
  let org: MailOrg;
  beforeAll(async () => {
    sink = await SmtpSink.start();
    org = await mailOrg(sink.env({ ...FAST_OUTBOX, PARLEY_OUTBOX_MAX_ATTEMPTS: "3" }));
  });
  afterAll(async () => {
    await org.server.dispose();
    await sink.stop();
  });
  afterEach(() => {
    sink.refuseNext = 0;
    sink.refusalCode = 451;
  });

  test("a server that refuses for now (451) is tried again with backoff until it takes the mail", async () => {
    const before = sink.received.length;
    const attemptsBefore = sink.attempts.length;
    sink.refuseNext = 2;
    const started = Date.now();
    const to = await deactivateWithMail(org);
    const mails = await sink.waitFor(before + 1);
    expect(mails[before].recipients).toEqual([to]);
    expect(sink.attempts.slice(attemptsBefore)).toEqual([to, to, to]);
    // Two waits of at least a second each (backoff), not a tight loop.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    await waitForLog(org.server, /item (\d+) \(account_deactivated_email\) failed on try 2, next in 1 s: .*451/);
    await waitForLog(org.server, /item \d+ \(account_deactivated_email\) delivered on try 3/);
  });

  test("a server that is down is tried again, and the mail goes out when it comes back", async () => {
    const before = sink.received.length;
    await sink.pause();
    const to = await deactivateWithMail(org);
    await waitForLog(org.server, /item \d+ \(account_deactivated_email\) failed on try 1, next in 1 s: .*ECONNREFUSED/);
    await sink.resume();
    const mails = await sink.waitFor(before + 1);
    expect(mails[before].recipients).toEqual([to]);
    await Bun.sleep(1500);
    expect(sink.received.length).toBe(before + 1);
  });

  test("after the last of its attempts the item is given up, and not tried again", async () => {
    const before = sink.received.length;
    const attemptsBefore = sink.attempts.length;
    sink.refuseNext = 100;
    const to = await deactivateWithMail(org);
    const [, id] = await waitForLog(org.server, /outbox: gave up item (\d+) \(account_deactivated_email\) after 3 tries: .*451/);
    expect(sink.attempts.slice(attemptsBefore)).toEqual([to, to, to]);
    await Bun.sleep(1500);
    expect(sink.attempts.length).toBe(attemptsBefore + 3);
    expect(sink.received.length).toBe(before);
    expect(countInLog(org.server, new RegExp(`gave up item ${id} `))).toBe(1);
  });

  test("a permanent refusal (550) is given up at once", async () => {
    const attemptsBefore = sink.attempts.length;
    sink.refuseNext = 1;
    sink.refusalCode = 550;
    await deactivateWithMail(org);
    await waitForLog(org.server, /gave up item \d+ \(account_deactivated_email\) after 1 tries: .*550/);
    await Bun.sleep(1500);
    expect(sink.attempts.length).toBe(attemptsBefore + 1);
  });

  test("mail queued behind a failing item still goes out", async () => {
    const before = sink.received.length;
    sink.refuseNext = 1;
    const first = await deactivateWithMail(org, "first");
    const second = await deactivateWithMail(org, "second");
    const mails = (await sink.waitFor(before + 2)).slice(before);
    expect(mails.map((mail) => mail.recipients[0]).sort()).toEqual([first, second].sort());
  });
});
