import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { queryServer } from "../helpers/channels";
import { ApiClient } from "../helpers/client";
import { postFrom } from "../helpers/fromAddress";
import { editServerDatabase } from "../helpers/inProcess";
import { OWNER, createPerson, expectError, login, ok, seedOrg, startInitializedServer, type Org, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";
import { SmtpSink } from "../helpers/smtpSink";

/**
 * Password resets (a Parley addition): POST /users/{user_id}/password_reset by administrators,
 * the link's page /reset/<token>, and "Forgot your password?" at /password/forgot, with a real
 * SMTP sink; and a server without mail, where only one-time links work.
 */

// Sign-ins and resets hash passwords, slowly by design.
setDefaultTimeout(30_000);

let org: Org;
let sink: SmtpSink;
let noMail: TestServer;
let nextAddress = 10;
/** A fresh loopback address per form post, so the per-address limits only act where tested. */
const freshAddress = () => `127.0.1.${nextAddress++}`;

beforeAll(async () => {
  sink = await SmtpSink.start();
  [org, noMail] = await Promise.all([seedOrg({ env: sink.env({ PARLEY_OUTBOX_SWEEP_SECONDS: "1", PARLEY_OUTBOX_RETRY_BASE_SECONDS: "1" }) }), startInitializedServer()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([org?.server.dispose(), noMail?.dispose()]);
  await sink?.stop();
});

let personCount = 0;
/** A new member for one test, so password changes do not reach into other tests. */
const freshPerson = (server = org.server, owner = org.owner) => createPerson(owner, new ApiClient(server.url), `Reset Person ${++personCount}`);

/** The link as the server wrote it (the realm URL is the default one), pointed at a test server. */
const local = (link: string, server = org.server) => `${server.url}${new URL(link).pathname}`;
const linkIn = (text: string) => /https?:\/\/\S+\/reset\/[\w-]+/.exec(text)![0];

async function oneTimeLink(person: Person, by = org.admin): Promise<string> {
  return ok(await by.api.post(`/users/${person.id}/password_reset`, { send_email: false })).reset_url;
}

const openLink = async (link: string) => {
  const response = await fetch(local(link), { redirect: "manual" });
  return { status: response.status, page: await response.text() };
};

const submitReset = (link: string, password: string, confirmation = password) => postFrom(freshAddress(), local(link), { password, password_confirmation: confirmation });

/** The cookie header of a browser session started by the sign-in form. */
async function browserSession(server: TestServer, email: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const response = await postFrom(freshAddress(), `${server.url}/login`, { username: email, password });
  expect(response.status).toBe(303);
  return sessionOf(response.headers["set-cookie"]!);
}

function sessionOf(setCookies: string[]): { cookie: string; csrf: string } {
  const pairs = setCookies.map((cookie) => cookie.split(";")[0]);
  return { cookie: pairs.join("; "), csrf: pairs.find((pair) => pair.startsWith("parley_csrf="))!.split("=")[1] };
}

async function withSession(server: TestServer, session: { cookie: string; csrf?: string }, method: string, path: string, form: Record<string, string> = {}) {
  const headers: Record<string, string> = { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" };
  if (session.csrf) headers["x-csrf-token"] = session.csrf;
  const response = await fetch(`${server.url}/api/v1${path}`, { method, headers, body: method === "GET" ? undefined : new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as any };
}

const signsIn = async (server: TestServer, email: string, password: string) => (await new ApiClient(server.url).post("/fetch_api_key", { username: email, password })).status === 200;

async function mailsTo(address: string, count = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = sink.received.filter((mail) => mail.recipients.includes(address));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
    await Bun.sleep(50);
  }
}

describe("POST /users/{user_id}/password_reset", () => {
  test("send_email false answers a one-time link valid for 24 hours; it sets the password once and signs the browser in", async () => {
    const person = await freshPerson();
    const before = Math.floor(Date.now() / 1000);
    const answer = ok(await org.admin.api.post(`/users/${person.id}/password_reset`, { send_email: false }));
    expect(answer).toEqual({ result: "success", msg: "", expiry_date: expect.any(Number), reset_url: expect.stringMatching(/^http:\/\/localhost:8080\/reset\/[\w-]{43}$/) });
    expect(answer.expiry_date - before).toBeGreaterThanOrEqual(24 * 3600);
    expect(answer.expiry_date - before).toBeLessThanOrEqual(24 * 3600 + 5);

    const page = await openLink(answer.reset_url);
    expect(page.status).toBe(200);
    expect(page.page).toContain("Choose a new password");
    expect(page.page).toContain(person.email);

    const done = await submitReset(answer.reset_url, "brand-new-password");
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe("/");
    const session = sessionOf(done.headers["set-cookie"]!);
    expect((await withSession(org.server, session, "GET", "/users/me")).body.user_id).toBe(person.id);
    expect(await signsIn(org.server, person.email, "brand-new-password")).toBe(true);
    expect(await signsIn(org.server, person.email, person.password)).toBe(false);

    // Once only.
    const again = await openLink(answer.reset_url);
    expect(again.status).toBe(410);
    expect(again.page).toContain("already used");
    expect((await submitReset(answer.reset_url, "another-password")).status).toBe(410);
    expect(await signsIn(org.server, person.email, "another-password")).toBe(false);
  });

  test("using the link ends every browser session of the account", async () => {
    const person = await freshPerson();
    const [first, second] = [await browserSession(org.server, person.email, person.password), await browserSession(org.server, person.email, person.password)];
    expect((await withSession(org.server, first, "GET", "/users/me")).status).toBe(200);
    const done = await submitReset(await oneTimeLink(person), "fresh-password-1");
    expect(done.status).toBe(303);
    for (const session of [first, second]) expectError(await withSession(org.server, session, "GET", "/users/me"), "UNAUTHORIZED", 401);
    // The API key is not a password: API clients keep working.
    ok(await person.api.get("/users/me"));
  });

  test("a new link retires the older unused ones", async () => {
    const person = await freshPerson();
    const older = await oneTimeLink(person);
    const newer = await oneTimeLink(person, org.owner);
    expect((await openLink(older)).status).toBe(410);
    expect((await submitReset(older, "older-password")).status).toBe(410);
    expect((await submitReset(newer, "newer-password")).status).toBe(303);
    expect(await signsIn(org.server, person.email, "newer-password")).toBe(true);
  });

  test("an expired link is refused with 410 and changes nothing", async () => {
    const person = await freshPerson();
    const link = await oneTimeLink(person);
    const tokenHash = new Bun.CryptoHasher("sha256").update(new URL(link).pathname.split("/").pop()!).digest("hex");
    editServerDatabase(org.server, "UPDATE password_resets SET expires_at = ? WHERE token_hash = ?", Math.floor(Date.now() / 1000) - 1, tokenHash);
    const page = await openLink(link);
    expect(page.status).toBe(410);
    expect(page.page).toContain("expired");
    expect((await submitReset(link, "too-late-password")).status).toBe(410);
    expect(await signsIn(org.server, person.email, person.password)).toBe(true);
  });

  test("an unknown link is 404; a link of an account deactivated since is 410", async () => {
    const unknown = await openLink("http://localhost:8080/reset/not-a-real-token");
    expect(unknown.status).toBe(404);
    expect(unknown.page).toContain("not valid");
    expect((await submitReset("http://localhost:8080/reset/not-a-real-token", "whatever-password")).status).toBe(404);
    const tooLong = await fetch(`${org.server.url}/reset/${"x".repeat(65)}`);
    expect(tooLong.status).toBe(400);

    const person = await freshPerson();
    const link = await oneTimeLink(person);
    ok(await org.admin.api.delete(`/users/${person.id}`));
    const page = await openLink(link);
    expect(page.status).toBe(410);
    expect(page.page).toContain("no longer works");
    expect((await submitReset(link, "sneaky-password")).status).toBe(410);
  });

  test("the form refuses short and mismatched passwords and keeps the link usable", async () => {
    const person = await freshPerson();
    const link = await oneTimeLink(person);
    const short = await submitReset(link, "short");
    expect(short.status).toBe(400);
    expect(short.text).toContain("at least 8 characters");
    const mismatch = await submitReset(link, "first-password", "second-password");
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain("The two passwords differ");
    const missing = await postFrom(freshAddress(), local(link), {});
    expect(missing.status).toBe(400);
    expect((await submitReset(link, "finally-a-password")).status).toBe(303);
  });

  test("send_email (the default) mails the person a link that works, and answers no link", async () => {
    const person = await freshPerson();
    const answer = ok(await org.admin.api.post(`/users/${person.id}/password_reset`));
    expect(answer).toEqual({ result: "success", msg: "", expiry_date: expect.any(Number) });
    const [mail] = await mailsTo(person.email);
    expect(mail.subject).toBe("Reset your password for Test Org");
    expect(mail.text).toContain("Ada Admin, an administrator, asked for a new password");
    expect((await submitReset(linkIn(mail.text), "mailed-password")).status).toBe(303);
    expect(await signsIn(org.server, person.email, "mailed-password")).toBe(true);
  });

  test("a link replaced before its mail went out is not mailed", async () => {
    const person = await freshPerson();
    await sink.pause();
    try {
      ok(await org.admin.api.post(`/users/${person.id}/password_reset`, { send_email: true }));
      // Its first try has failed (a try under way might still reach the server after resume()).
      const tried = Date.now() + 10_000;
      while (!(queryServer<{ attempts: number }>(org.server, { sqlite: "SELECT attempts FROM outbox WHERE json_extract(payload, '$.to') = ?", postgres: "SELECT attempts FROM outbox WHERE payload->>'to' = ?" }, person.email)[0]?.attempts >= 1)) {
        if (Date.now() > tried) throw new Error("the outbox never tried the reset mail");
        await Bun.sleep(20);
      }
      // The one-time link retires the mailed one while the mail server is away.
      await oneTimeLink(person);
    } finally {
      await sink.resume();
    }
    // The outbox tries again within a second or two and finds nothing to send.
    const deadline = Date.now() + 10_000;
    while (queryServer<{ sent_at: number | null }>(org.server, { sqlite: "SELECT sent_at FROM outbox WHERE json_extract(payload, '$.to') = ?", postgres: "SELECT sent_at FROM outbox WHERE payload->>'to' = ?" }, person.email)[0]?.sent_at == null) {
      if (Date.now() > deadline) throw new Error("the outbox never finished the reset mail");
      await Bun.sleep(100);
    }
    expect(sink.received.filter((mail) => mail.recipients.includes(person.email))).toEqual([]);
  });

  test("only administrators, and only owners for owners; never bots, the deactivated or oneself", async () => {
    const person = await freshPerson();
    for (const caller of [org.member, org.moderator, org.guest, org.bot]) {
      const refused = await caller.api.post(`/users/${person.id}/password_reset`, { send_email: false });
      expectError(refused, "UNAUTHORIZED_PRINCIPAL");
      expect(refused.body.msg).toBe("Must be an organization administrator");
    }
    const ownerTarget = await org.admin.api.post(`/users/${org.owner.id}/password_reset`, { send_email: false });
    expectError(ownerTarget, "UNAUTHORIZED_PRINCIPAL");
    expect(ownerTarget.body.msg).toBe("Must be an organization owner");
    ok(await org.owner.api.post(`/users/${org.admin.id}/password_reset`, { send_email: false }));

    const refusals: Array<[number | string, string]> = [
      [org.admin.id, "Change your own password in your settings."],
      [org.bot.id, "Bots have no password: they use their API key."],
      [999_999, "No such user"],
    ];
    for (const [id, msg] of refusals) {
      const refused = await org.admin.api.post(`/users/${id}/password_reset`, { send_email: false });
      expectError(refused, "BAD_REQUEST");
      expect(refused.body.msg).toBe(msg);
    }
    const gone = await freshPerson();
    ok(await org.admin.api.delete(`/users/${gone.id}`));
    expect((await org.admin.api.post(`/users/${gone.id}/password_reset`, { send_email: false })).body.msg).toBe("This account is deactivated; reactivate it first.");
  });

  test("bad input is a clear 400", async () => {
    expectError(await org.admin.api.post("/users/abc/password_reset", { send_email: false }), "BAD_REQUEST");
    expectError(await org.admin.api.post("/users/1.5/password_reset", { send_email: false }), "BAD_REQUEST");
    expectError(await org.admin.api.post(`/users/${org.member.id}/password_reset`, { send_email: "maybe" }), "BAD_REQUEST");
    expectError(await org.anon.post(`/users/${org.member.id}/password_reset`, { send_email: false }), "UNAUTHORIZED", 401);
  });

  test("a member's browser session cannot reset anyone's password, with or without the CSRF value", async () => {
    const session = await browserSession(org.server, org.member2.email, org.member2.password);
    const forged = await withSession(org.server, session, "POST", `/users/${org.member.id}/password_reset`, { send_email: "false" });
    expectError(forged, "UNAUTHORIZED_PRINCIPAL");
    const noCsrf = await withSession(org.server, { cookie: session.cookie }, "POST", `/users/${org.member.id}/password_reset`, { send_email: "false" });
    expectError(noCsrf, "CSRF_FAILED", 403);
    // An administrator's session needs the CSRF value too.
    const admin = await browserSession(org.server, org.admin.email, org.admin.password);
    expectError(await withSession(org.server, { cookie: admin.cookie }, "POST", `/users/${org.member.id}/password_reset`, { send_email: "false" }), "CSRF_FAILED", 403);
    const allowed = await withSession(org.server, admin, "POST", `/users/${org.member.id}/password_reset`, { send_email: "false" });
    expect(allowed.status).toBe(200);
    expect(allowed.body.reset_url).toContain("/reset/");
  });
});

describe("Forgot your password?", () => {
  const forgot = (email: string, address = freshAddress()) => postFrom(address, `${org.server.url}/password/forgot`, { email });

  test("the sign-in page links to it, and it asks for the address", async () => {
    const signIn = await (await fetch(`${org.server.url}/login`)).text();
    expect(signIn).toContain('<a class="secondary" href="/password/forgot">Forgot your password?</a>');
    const page = await fetch(`${org.server.url}/password/forgot`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('<form method="post" action="/password/forgot">');
    expect(text).toContain("E-mail address");
  });

  test("an existing address and an unknown one get the same answer; only the account is mailed", async () => {
    const person = await freshPerson();
    const known = await forgot(person.email.toUpperCase());
    const unknown = await forgot("nobody-here@example.com");
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const strip = (page: string, email: string) => page.replaceAll(email, "ADDRESS");
    expect(strip(known.text, person.email.toUpperCase())).toBe(strip(unknown.text, "nobody-here@example.com"));
    expect(known.text).toContain("If an account exists for");

    const [mail] = await mailsTo(person.email);
    expect(mail.text).toContain("Someone (probably you) asked for a new password");
    expect((await submitReset(linkIn(mail.text), "remembered-password")).status).toBe(303);
    expect(await signsIn(org.server, person.email, "remembered-password")).toBe(true);
    expect(sink.received.some((mail) => mail.recipients.includes("nobody-here@example.com"))).toBe(false);
  });

  test("deactivated accounts and bots are answered alike and mailed nothing", async () => {
    const gone = await freshPerson();
    ok(await org.admin.api.delete(`/users/${gone.id}`));
    expect((await forgot(gone.email)).text).toContain("If an account exists for");
    expect((await forgot(org.bot.email)).text).toContain("If an account exists for");
    const marker = await freshPerson();
    await forgot(marker.email);
    await mailsTo(marker.email);
    expect(sink.received.some((mail) => mail.recipients.includes(gone.email) || mail.recipients.includes(org.bot.email))).toBe(false);
  });

  test("a blank address re-shows the form", async () => {
    const blank = await forgot("  ");
    expect(blank.status).toBe(400);
    expect(blank.text).toContain("Enter your e-mail address.");
  });

  test("three requests per address an hour, counted alike for unknown addresses", async () => {
    for (const email of ["limited@example.com", (await freshPerson()).email]) {
      for (let i = 0; i < 3; i++) expect((await forgot(email)).status).toBe(200);
      const limited = await forgot(email);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      expect(limited.text).toContain("Too many reset requests. Try again in");
    }
  });

  test("ten requests per client address an hour", async () => {
    const address = freshAddress();
    for (let i = 0; i < 10; i++) expect((await forgot(`sprayed-${i}@example.com`, address)).status).toBe(200);
    expect((await forgot("sprayed-last@example.com", address)).status).toBe(429);
    expect((await forgot("sprayed-last@example.com")).status).toBe(200);
  });
});

describe("on a server that cannot send e-mail", () => {
  test("resets are one-time links only, and the forgot page says to ask an administrator", async () => {
    const anon = new ApiClient(noMail.url);
    const owner = await login(anon, OWNER.email, OWNER.password);
    const person = await freshPerson(noMail, owner);
    const refused = await owner.api.post(`/users/${person.id}/password_reset`);
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toContain("no mail server is configured");
    const link = ok(await owner.api.post(`/users/${person.id}/password_reset`, { send_email: false })).reset_url;
    expect((await postFrom(freshAddress(), local(link, noMail), { password: "handed-over-pw", password_confirmation: "handed-over-pw" })).status).toBe(303);
    expect(await signsIn(noMail, person.email, "handed-over-pw")).toBe(true);

    for (const page of [await (await fetch(`${noMail.url}/password/forgot`)).text(), (await postFrom(freshAddress(), `${noMail.url}/password/forgot`, { email: person.email })).text]) {
      expect(page).toContain("Ask an administrator of Test Org to create a password reset link for you.");
      expect(page).not.toContain("<form");
    }
  });
});
