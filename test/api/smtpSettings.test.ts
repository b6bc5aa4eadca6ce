import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createServer } from "node:net";
import { ApiClient } from "../helpers/client";
import { postFrom } from "../helpers/fromAddress";
import { OWNER, expectError, login, ok, seedOrg, startInitializedServer, type Org, type Person } from "../helpers/seed";
import type { TestServer } from "../helpers/server";
import { SINK_FROM, SmtpSink } from "../helpers/smtpSink";
import { FAST_OUTBOX } from "../outbox/helpers";

/**
 * GET, PUT and DELETE /server/smtp and POST /server/smtp/test (Parley additions): the SMTP
 * relay set in the browser, who may, what is checked, the test e-mail's exact errors, the
 * environment's precedence, and mail going out through saved settings without a restart.
 */

setDefaultTimeout(60_000);

let org: Org;
/** Plain text, so the settings need no CA file (only the environment can name one). */
let sink: SmtpSink;
/** A port nothing listens on. */
let closedPort: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const sinkSettings = (overrides: Record<string, unknown> = {}) => ({ host: "127.0.0.1", port: sink.port, security: "none", from: SINK_FROM, ...overrides });
const smtpOf = async (person: Person = org.owner) => ok(await person.api.get("/server/smtp"));
const NONE = { result: "success", msg: "", smtp: null, source: "none" };

beforeAll(async () => {
  [org, sink, closedPort] = await Promise.all([seedOrg({ env: FAST_OUTBOX }), SmtpSink.start({ security: "none" }), freePort()]);
});
afterAll(async () => {
  await org?.server.dispose();
  await sink?.stop();
});

describe("before any mail server is set", () => {
  test("GET answers none to owners and administrators", async () => {
    expect(await smtpOf(org.owner)).toEqual(NONE);
    expect(await smtpOf(org.admin)).toEqual(NONE);
  });

  test("testing without settings says there is nothing to test", async () => {
    const answer = await org.owner.api.post("/server/smtp/test");
    expectError(answer, "BAD_REQUEST");
    expect(answer.body.msg).toBe("No mail server is set up yet: give its settings to test them.");
    expect(answer.body.smtp_error).toBeUndefined();
  });
});

describe("who may", () => {
  const REFUSAL = { result: "error", msg: "Must be an organization administrator", code: "UNAUTHORIZED_PRINCIPAL" };

  test("moderators, members, guests and bots are refused every call with their API key, and nothing changes", async () => {
    for (const person of [org.moderator, org.member, org.guest, org.bot]) {
      for (const answer of [
        await person.api.get("/server/smtp"),
        await person.api.request("PUT", "/server/smtp", sinkSettings()),
        await person.api.delete("/server/smtp"),
        await person.api.post("/server/smtp/test", sinkSettings()),
        await person.api.post("/server/smtp/test"),
      ]) {
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: REFUSAL });
      }
    }
    expect(await smtpOf()).toEqual(NONE);
    expect(sink.received).toEqual([]);
  });

  test("a member's browser session is refused too, with or without the CSRF value", async () => {
    const signedIn = await postFrom("127.0.0.41", `${org.server.url}/login`, { username: org.member.email, password: org.member.password });
    const cookies = (signedIn.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]);
    const csrf = cookies.find((cookie) => cookie.startsWith("parley_csrf="))!.slice("parley_csrf=".length);
    const call = async (method: string, path: string, headers: Record<string, string>, form?: Record<string, unknown>) => {
      const body = form ? new URLSearchParams(Object.entries(form).map(([name, value]) => [name, String(value)])) : undefined;
      const response = await fetch(`${org.server.url}/api/v1${path}`, { method, headers: { cookie: cookies.join("; "), ...headers }, body });
      return { status: response.status, body: await response.json() };
    };
    // Forged as the admin console would send it: cookie and CSRF header.
    expect(await call("GET", "/server/smtp", {})).toEqual({ status: 400, body: REFUSAL });
    expect(await call("PUT", "/server/smtp", { "x-csrf-token": csrf }, sinkSettings())).toEqual({ status: 400, body: REFUSAL });
    expect(await call("POST", "/server/smtp/test", { "x-csrf-token": csrf }, sinkSettings())).toEqual({ status: 400, body: REFUSAL });
    expect(await call("DELETE", "/server/smtp", { "x-csrf-token": csrf })).toEqual({ status: 400, body: REFUSAL });
    expectError(await call("PUT", "/server/smtp", {}, sinkSettings()), "CSRF_FAILED", 403);
    expect(await smtpOf()).toEqual(NONE);
    expect(sink.received).toEqual([]);
  });

  test("nobody signed in is refused", async () => {
    expectError(await org.anon.get("/server/smtp"), "UNAUTHORIZED", 401);
    expectError(await org.anon.request("PUT", "/server/smtp", sinkSettings()), "UNAUTHORIZED", 401);
  });
});

describe("PUT /server/smtp checks what it stores", () => {
  test("each wrong value is refused with the reason, and nothing is stored", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ host: "" }, "The mail server's host name is required."],
      [{ host: "smtp example.com" }, "'smtp example.com' is not a valid host name or IP address."],
      [{ host: "smtp..example.com" }, "is not a valid host name"],
      [{ host: "-smtp.example.com" }, "is not a valid host name"],
      [{ port: 0 }, "Invalid port 0: use a whole number from 1 to 65535"],
      [{ port: 65536 }, "Invalid port 65536"],
      [{ port: 25.5 }, "Invalid port 25.5"],
      [{ port: "smtp" }, "port"],
      [{ security: "ssl" }, "Invalid security 'ssl': use starttls, tls or none."],
      [{ from: "" }, "is not a valid sender"],
      [{ from: "noreply" }, "'noreply' is not a valid sender"],
      [{ from: "Parley <noreply>" }, "is not a valid sender"],
      [{ from: "Parley noreply@example.com" }, "is not a valid sender"],
      [{ from: "noreply@example.com\r\nBcc: all@example.com" }, "is not a valid sender"],
      [{ user: "parley" }, "A password is needed with a user name."],
    ];
    for (const [change, message] of cases) {
      const answer = await org.admin.api.request("PUT", "/server/smtp", sinkSettings(change));
      expectError(answer, "BAD_REQUEST");
      expect(answer.body.msg).toContain(message);
    }
    for (const missing of ["host", "port", "security", "from"]) {
      const params: Record<string, unknown> = sinkSettings();
      delete params[missing];
      const answer = await org.admin.api.request("PUT", "/server/smtp", params);
      expectError(answer, "BAD_REQUEST");
      expect(answer.body.var_name).toBe(missing);
    }
    expect(await smtpOf()).toEqual(NONE);
  });

  test("host names, IP addresses and senders in both forms are accepted", async () => {
    for (const change of [{ host: "smtp.example.com" }, { host: "::1" }, { host: "mail", from: "noreply@example.com" }, { security: "TLS", from: `"Chat, Inc." <chat@example.com>` }]) {
      ok(await org.admin.api.request("PUT", "/server/smtp", sinkSettings(change)));
    }
    expect((await smtpOf()).smtp).toMatchObject({ security: "tls", from: `"Chat, Inc." <chat@example.com>` });
    ok(await org.admin.api.delete("/server/smtp"));
  });
});

describe("saving, reading back and removing", () => {
  test("an administrator saves; GET shows the settings, never the password", async () => {
    ok(await org.admin.api.request("PUT", "/server/smtp", sinkSettings({ user: " parley ", password: "s3cret pass" })));
    const answer = await org.owner.api.get("/server/smtp");
    expect(ok(answer)).toEqual({ result: "success", msg: "", source: "database", smtp: { host: "127.0.0.1", port: sink.port, security: "none", user: "parley", from: SINK_FROM, password_set: true } });
    expect(JSON.stringify(answer.body)).not.toContain("s3cret");
  });

  test("a password left out is kept for the same server and user, and must be given again for another", async () => {
    ok(await org.owner.api.request("PUT", "/server/smtp", sinkSettings({ user: "parley", from: "Parley Chat <chat@parley.test>" })));
    expect((await smtpOf()).smtp).toMatchObject({ user: "parley", password_set: true, from: "Parley Chat <chat@parley.test>" });
    const moved = await org.owner.api.request("PUT", "/server/smtp", sinkSettings({ host: "smtp.elsewhere.example", user: "parley" }));
    expectError(moved, "BAD_REQUEST");
    expect(moved.body.msg).toBe("Enter the password again: the server or the user name changed.");
    const renamed = await org.owner.api.request("PUT", "/server/smtp", sinkSettings({ user: "someone-else", password: "" }));
    expect(renamed.body.msg).toBe("Enter the password again: the server or the user name changed.");
    // Without a user name no password is kept.
    ok(await org.owner.api.request("PUT", "/server/smtp", sinkSettings({ password: "ignored" })));
    expect((await smtpOf()).smtp).toMatchObject({ user: null, password_set: false });
  });

  test("DELETE removes them, and may be repeated", async () => {
    ok(await org.admin.api.delete("/server/smtp"));
    expect(await smtpOf()).toEqual(NONE);
    ok(await org.admin.api.delete("/server/smtp"));
  });
});

describe("POST /server/smtp/test", () => {
  test("sends through the settings given, before saving, to the caller; nothing is stored", async () => {
    const before = sink.received.length;
    expect(ok(await org.admin.api.post("/server/smtp/test", sinkSettings()))).toEqual({ result: "success", msg: "", to: "ada.admin@example.com" });
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail).toMatchObject({ recipients: ["ada.admin@example.com"], subject: "Parley test message", sender: "noreply@parley.test" });
    expect(mail.text).toContain(`sent through 127.0.0.1:${sink.port} (none)`);
    expect(await smtpOf()).toEqual(NONE);
  });

  test("sends to the address given", async () => {
    const before = sink.received.length;
    expect(ok(await org.owner.api.post("/server/smtp/test", { ...sinkSettings(), to: "postmaster@parley.test" })).to).toBe("postmaster@parley.test");
    expect((await sink.waitFor(before + 1))[before].recipients).toEqual(["postmaster@parley.test"]);
    const bad = await org.owner.api.post("/server/smtp/test", { ...sinkSettings(), to: "not an address" });
    expectError(bad, "BAD_REQUEST");
    expect(bad.body.msg).toBe("'not an address' is not a valid e-mail address.");
  });

  test("a refused connection answers the connection's exact error", async () => {
    const answer = await org.owner.api.post("/server/smtp/test", sinkSettings({ port: closedPort }));
    expectError(answer, "BAD_REQUEST");
    expect(answer.body.smtp_error).toBe(`connect ECONNREFUSED 127.0.0.1:${closedPort}`);
    expect(answer.body.msg).toBe(`The test e-mail could not be sent: connect ECONNREFUSED 127.0.0.1:${closedPort}`);
  });

  test("a refused sign-in answers the SMTP server's own words", async () => {
    const guarded = await SmtpSink.start({ security: "none", auth: { user: "parley", password: "right" } });
    try {
      const answer = await org.owner.api.post("/server/smtp/test", sinkSettings({ port: guarded.port, user: "parley", password: "wrong" }));
      expectError(answer, "BAD_REQUEST");
      expect(answer.body.smtp_error).toContain("535 Invalid username or password");
      expect(answer.body.msg).toBe(`The test e-mail could not be sent: ${answer.body.smtp_error}`);
      ok(await org.owner.api.post("/server/smtp/test", sinkSettings({ port: guarded.port, user: "parley", password: "right" })));
      expect((await guarded.waitFor(1))[0].user).toBe("parley");
    } finally {
      await guarded.stop();
    }
  });

  test("a server refusing the recipient answers its reply", async () => {
    sink.refuseNext = 1;
    sink.refusalCode = 550;
    const answer = await org.owner.api.post("/server/smtp/test", sinkSettings());
    expectError(answer, "BAD_REQUEST");
    expect(answer.body.smtp_error).toContain("550");
  });

  test("settings given are checked as PUT checks them", async () => {
    const answer = await org.owner.api.post("/server/smtp/test", { port: sink.port });
    expectError(answer, "BAD_REQUEST");
    expect(answer.body.var_name).toBe("host");
    expectError(await org.owner.api.post("/server/smtp/test", sinkSettings({ security: "ssl" })), "BAD_REQUEST");
  });
});

describe("mail goes out through saved settings, without a restart", () => {
  test("an invitation held for want of a server goes once settings are saved; later ones are mailed, not handed over", async () => {
    const held = ok(await org.owner.api.post("/invites", { invitee_emails: "held@example.com", stream_ids: [] }));
    expect(Object.keys(held.invite_links)).toEqual(["held@example.com"]);
    const before = sink.received.length;
    ok(await org.admin.api.request("PUT", "/server/smtp", sinkSettings()));
    const [heldMail] = (await sink.waitFor(before + 1)).slice(before);
    expect(heldMail.recipients).toEqual(["held@example.com"]);
    expect(heldMail.text).toContain(held.invite_links["held@example.com"]);

    const mailed = ok(await org.owner.api.post("/invites", { invitee_emails: "mailed@example.com", stream_ids: [] }));
    expect(mailed.invite_links).toBeUndefined();
    const [mail] = (await sink.waitFor(before + 2)).slice(before + 1);
    expect(mail).toMatchObject({ recipients: ["mailed@example.com"], sender: "noreply@parley.test" });
    expect(mail.subject).toContain("invited you to Test Org");
    // With the saved settings in force, a test needs no settings.
    ok(await org.owner.api.post("/server/smtp/test"));
    await sink.waitFor(before + 3);

    ok(await org.owner.api.delete("/server/smtp"));
    expect(Object.keys(ok(await org.owner.api.post("/invites", { invitee_emails: "after@example.com", stream_ids: [] })).invite_links)).toEqual(["after@example.com"]);
  });
});

describe("settings from the environment", () => {
  let envSink: SmtpSink;
  let server: TestServer;
  let owner: Person;
  beforeAll(async () => {
    envSink = await SmtpSink.start();
    server = await startInitializedServer({ env: envSink.env(FAST_OUTBOX) });
    owner = await login(new ApiClient(server.url), OWNER.email, OWNER.password);
  });
  afterAll(async () => {
    await server?.dispose();
    await envSink?.stop();
  });

  test("are shown read-only, win over the stored ones, and cannot be replaced", async () => {
    expect(ok(await owner.api.get("/server/smtp"))).toEqual({
      result: "success",
      msg: "",
      source: "environment",
      smtp: { host: "127.0.0.1", port: envSink.port, security: "starttls", user: null, from: SINK_FROM, password_set: false },
    });
    const refused = await owner.api.request("PUT", "/server/smtp", { host: "smtp.example.com", port: 587, security: "starttls", from: SINK_FROM });
    expectError(refused, "BAD_REQUEST");
    expect(refused.body.msg).toBe("The mail server is set by the environment (PARLEY_SMTP_HOST); change it there, or unset it to set it here.");
    ok(await owner.api.delete("/server/smtp"));
    expect(ok(await owner.api.get("/server/smtp")).source).toBe("environment");
  });

  test("a test without settings goes through them", async () => {
    expect(ok(await owner.api.post("/server/smtp/test")).to).toBe(OWNER.email);
    const [mail] = await envSink.waitFor(1);
    expect(mail).toMatchObject({ recipients: [OWNER.email], subject: "Parley test message", secure: true });
  });
});
