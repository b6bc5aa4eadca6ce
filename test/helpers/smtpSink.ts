import { readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 for tests: it keeps every message it accepts, parsed, and can
 * refuse recipients, require authentication, speak STARTTLS or implicit TLS with a fixed
 * self-signed certificate (test/fixtures/smtp-test-*.pem), and stop and come back on the same
 * port. `env` gives the PARLEY_SMTP_* settings that point a Parley server at it.
 */

const FIXTURES = join(import.meta.dir, "..", "fixtures");
/** The sink's certificate; Parley trusts it through PARLEY_SMTP_CA_FILE. */
export const SMTP_TEST_CERT = join(FIXTURES, "smtp-test-cert.pem");
const SMTP_TEST_KEY = join(FIXTURES, "smtp-test-key.pem");

export const SINK_FROM = "Parley <noreply@parley.test>";

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  recipients: string[];
  /** Envelope sender (MAIL FROM). */
  sender: string;
  subject: string;
  text: string;
  html: string | null;
  messageId: string;
  from: string;
  to: string;
  /** The user the session authenticated as, if any. */
  user: string | null;
  /** Whether the session ran over TLS (implicit or upgraded). */
  secure: boolean;
  raw: string;
}

export interface SmtpSinkOptions {
  /** starttls (the default: offered, not required), tls (implicit, from the first byte), none (no TLS offered). */
  security?: "starttls" | "tls" | "none";
  /** Require AUTH with this user and password. */
  auth?: { user: string; password: string };
  /** A port to listen on (for coming back on the same one); a free one otherwise. */
  port?: number;
}

export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** Refuse this many upcoming recipients with `refusalCode` (4xx: try later, 5xx: permanent). */
  refuseNext = 0;
  refusalCode = 451;
  /** Wait this long before accepting a message's data: a delivery still under way. */
  delayDataMs = 0;
  /** Messages whose data arrived, whether or not they were accepted yet. */
  dataStarted = 0;
  /** Every RCPT TO seen, accepted or refused: counts the tries. */
  readonly attempts: string[] = [];
  private server: SMTPServer | null = null;
  private waiters: (() => void)[] = [];
  port = 0;

  private constructor(private readonly options: SmtpSinkOptions) {
    this.port = options.port ?? 0;
  }

  static async start(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
    const sink = new SmtpSink(options);
    await sink.listen();
    return sink;
  }

  /** The environment that makes Parley send through this sink. */
  env(overrides: Record<string, string> = {}): Record<string, string> {
    const security = this.options.security ?? "starttls";
    return {
      PARLEY_SMTP_HOST: "127.0.0.1",
      PARLEY_SMTP_PORT: String(this.port),
      PARLEY_SMTP_SECURITY: security,
      PARLEY_SMTP_FROM: SINK_FROM,
      PARLEY_SMTP_CA_FILE: SMTP_TEST_CERT,
      ...(this.options.auth ? { PARLEY_SMTP_USER: this.options.auth.user, PARLEY_SMTP_PASSWORD: this.options.auth.password } : {}),
      ...overrides,
    };
  }

  private async listen() {
    const security = this.options.security ?? "starttls";
    const auth = this.options.auth;
    const options: SMTPServerOptions = {
      secure: security === "tls",
      key: readFileSync(SMTP_TEST_KEY),
      cert: readFileSync(SMTP_TEST_CERT),
      disabledCommands: [...(security === "none" ? ["STARTTLS"] : []), ...(auth ? [] : ["AUTH"])],
      authOptional: !auth,
      allowInsecureAuth: security === "none",
      logger: false,
      onAuth(session, _conn, callback) {
        if (auth && session.username === auth.user && session.password === auth.password) return callback(null, { user: session.username });
        callback(Object.assign(new Error("Invalid username or password"), { responseCode: 535 }));
      },
      onRcptTo: (address, _session, callback) => {
        this.attempts.push(address.address);
        if (this.refuseNext > 0) {
          this.refuseNext--;
          return callback(Object.assign(new Error(`Refused for the test (${this.refusalCode})`), { responseCode: this.refusalCode }));
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        this.dataStarted++;
        stream.on("end", async () => {
          if (this.delayDataMs > 0) await Bun.sleep(this.delayDataMs);
          const raw = Buffer.concat(chunks).toString("utf8");
          const parsed = await simpleParser(raw);
          const addressText = (value: unknown) => (value && typeof value === "object" && "text" in value ? String((value as { text: string }).text) : "");
          this.received.push({
            recipients: session.envelope.rcptTo.map((r) => r.address),
            sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : null,
            messageId: parsed.messageId ?? "",
            from: addressText(parsed.from),
            to: addressText(parsed.to),
            user: session.user ? String(session.user) : null,
            secure: session.secure,
            raw,
          });
          callback();
          for (const wake of this.waiters.splice(0)) wake();
        });
      },
    };
    const server = new SMTPServer(options);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, "127.0.0.1", () => resolve());
    });
    server.on("error", () => {});
    this.server = server;
    this.port = (server.server.address() as { port: number }).port;
  }

  /** Stops listening (connections are refused) until resume(). */
  async pause() {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Listens again on the same port. */
  async resume() {
    await this.listen();
  }

  /** Waits until `count` messages have arrived in all, or fails after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Expected ${count} mails, got ${this.received.length}: ${JSON.stringify(this.received.map((m) => m.subject))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received.slice(0, count);
  }

  async stop() {
    await this.pause();
  }
}
