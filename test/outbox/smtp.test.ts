import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SmtpSink } from "../helpers/smtpSink";
import { parleyCommand, runParley } from "../helpers/server";
import { FAST_OUTBOX, type MailOrg, deactivateWithMail, expectSaidAtStart, mailOrg, waitForLog } from "./helpers";

setDefaultTimeout(60_000);

/** `parley ARGS` without blocking this process, whose event loop runs the SMTP sink. */
async function runParleyAsync(args: string[], env: Record<string, string>) {
  const child = Bun.spawn([...parleyCommand(), ...args], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { exitCode, stdout, stderr };
}

const AUTH = { user: "parley", password: "s3cret pass" };

describe("SMTP connection settings", () => {
  test("implicit TLS with authentication", async () => {
    const sink = await SmtpSink.start({ security: "tls", auth: AUTH });
    const org = await mailOrg(sink.env(FAST_OUTBOX));
    try {
      await expectSaidAtStart(org, new RegExp(`E-mail goes out through 127\\.0\\.0\\.1:${sink.port} \\(tls\\)`));
      const to = await deactivateWithMail(org);
      const [mail] = await sink.waitFor(1);
      expect(mail.recipients).toEqual([to]);
      expect(mail.secure).toBe(true);
      expect(mail.user).toBe(AUTH.user);
    } finally {
      await org.server.dispose();
      await sink.stop();
    }
  });

  test("a wrong password is retried (an administrator can fix it), nothing is delivered", async () => {
    const sink = await SmtpSink.start({ security: "starttls", auth: AUTH });
    const org = await mailOrg(sink.env({ ...FAST_OUTBOX, PARLEY_SMTP_PASSWORD: "wrong" }));
    try {
      await deactivateWithMail(org);
      await waitForLog(org.server, /failed on try 2, next in 1 s: .*535/);
      expect(sink.received).toEqual([]);
    } finally {
      await org.server.dispose();
      await sink.stop();
    }
  });

  test("starttls refuses to send in the clear to a server that offers no STARTTLS", async () => {
    const sink = await SmtpSink.start({ security: "none" });
    const org = await mailOrg(sink.env({ ...FAST_OUTBOX, PARLEY_SMTP_SECURITY: "starttls" }));
    try {
      await deactivateWithMail(org);
      await waitForLog(org.server, /failed on try 1, next in 1 s: .*STARTTLS/);
      expect(sink.received).toEqual([]);
    } finally {
      await org.server.dispose();
      await sink.stop();
    }
  });

  test("security none sends in plain text", async () => {
    const sink = await SmtpSink.start({ security: "none" });
    const org = await mailOrg(sink.env(FAST_OUTBOX));
    try {
      const to = await deactivateWithMail(org);
      const [mail] = await sink.waitFor(1);
      expect(mail.recipients).toEqual([to]);
      expect(mail.secure).toBe(false);
    } finally {
      await org.server.dispose();
      await sink.stop();
    }
  });

  test("a certificate the server does not trust is refused", async () => {
    const sink = await SmtpSink.start({ security: "tls" });
    const env = sink.env(FAST_OUTBOX);
    delete env.PARLEY_SMTP_CA_FILE;
    const org = await mailOrg(env);
    try {
      await deactivateWithMail(org);
      await waitForLog(org.server, /failed on try 1, next in 1 s: .*(self.signed|certificate)/i);
      expect(sink.received).toEqual([]);
    } finally {
      await org.server.dispose();
      await sink.stop();
    }
  });
});

describe("parley mail-test", () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await SmtpSink.start({ security: "tls", auth: AUTH });
  });
  afterAll(() => sink.stop());

  test("sends a test message through the configured server and says so", async () => {
    const result = await runParleyAsync(["mail-test", "--to", "admin@example.com"], sink.env());
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`Sent a test message to admin@example.com through 127.0.0.1:${sink.port} (tls)`);
    const [mail] = await sink.waitFor(1);
    expect(mail).toMatchObject({ recipients: ["admin@example.com"], subject: "Parley test message", user: AUTH.user, secure: true });
    expect(mail.text).toContain("Parley can send e-mail");
    expect(mail.messageId).toMatch(/^<mail-test\.[0-9a-f-]+@parley\.test>$/);
  });

  test("options win over the environment", async () => {
    const before = sink.received.length;
    const env = sink.env({ PARLEY_SMTP_HOST: "smtp.invalid", PARLEY_SMTP_PORT: "1" });
    const result = await runParleyAsync(["mail-test", "--to", "ops@example.com", "--smtp-host", "127.0.0.1", "--smtp-port", String(sink.port), "--smtp-from", "Ops <ops@parley.test>"], env);
    expect(result.exitCode).toBe(0);
    const mail = (await sink.waitFor(before + 1))[before];
    expect(mail.recipients).toEqual(["ops@example.com"]);
    expect(mail.sender).toBe("ops@parley.test");
  });

  test("a failure is explained, with the server's answer, exit code 1", async () => {
    const result = await runParleyAsync(["mail-test", "--to", "admin@example.com"], sink.env({ PARLEY_SMTP_PASSWORD: "wrong" }));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^parley: Sending through 127\\.0\\.0\\.1:${sink.port} \\(tls\\) failed: .*535`));
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  test("refusals: no SMTP server, no --to, a bad address, bad settings, unknown options", () => {
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [["mail-test", "--to", "a@example.com"], { PARLEY_SMTP_HOST: "" }, 1, /^parley: No SMTP server is configured/],
      [["mail-test"], sink.env(), 2, /^parley: --to must be an e-mail address/],
      [["mail-test", "--to", "not-an-address"], sink.env(), 2, /^parley: --to must be an e-mail address, got 'not-an-address'/],
      [["mail-test", "--to", "a@example.com"], sink.env({ PARLEY_SMTP_SECURITY: "ssl" }), 1, /^parley: PARLEY_SMTP_SECURITY must be starttls, tls or none/],
      [["mail-test", "--to", "a@example.com"], sink.env({ PARLEY_SMTP_FROM: "" }), 1, /^parley: PARLEY_SMTP_FROM is required/],
      [["mail-test", "--to", "a@example.com", "--smtp-password", "x"], sink.env(), 2, /^parley: Unknown option '--smtp-password'/],
    ];
    for (const [args, env, exitCode, message] of cases) {
      const result = runParley(args, { env });
      expect({ args, exitCode: result.exitCode, stderr: result.stderr }).toMatchObject({ args, exitCode, stderr: expect.stringMatching(message) });
    }
  });

  test("is listed in parley --help and has its own help", () => {
    expect(runParley(["--help"]).stdout).toContain("  mail-test ");
    const help = runParley(["mail-test", "--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain("Usage: parley mail-test --to ADDRESS");
    expect(help.stdout).toContain("PARLEY_SMTP_PASSWORD");
    expect(runParley(["serve", "--help"]).stdout).toContain("--smtp-host HOST");
  });
});
