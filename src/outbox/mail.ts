import { readFileSync } from "node:fs";
import type { Transporter } from "nodemailer";
import type { SmtpConfig } from "../config";
import { configureEnvironmentSmtp, effectiveSmtp } from "../reads/smtpSettings";
import type { DeliveryAttempt, Route } from "./deliverers";
import { GiveUp, RetryLater } from "./deliverers";

/**
 * Sending e-mail over SMTP with nodemailer. The relay is looked up at every send
 * (reads/smtpSettings.ts): the environment's (config.ts PARLEY_SMTP_*, given to configureMail()
 * at start) or else the one an administrator saved in the browser. Without either nothing is
 * sent and mail items wait in the outbox (see mailConfigured).
 */

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header fields (List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** The transport of the settings last used, kept while they stay the same. */
let cached: { key: string; transport: Transporter } | null = null;

/** Network timeouts: a silent server must not hold its lane's deliveries for long. */
const CONNECTION_TIMEOUT_MS = 15_000;
const SOCKET_TIMEOUT_MS = 60_000;
/** A test e-mail is waited for by a person in front of a page: all of it within this. */
const TEST_DEADLINE_MS = 15_000;

/** Mails under way at once, each on a connection of its own (PARLEY_OUTBOX_MAIL_CONCURRENCY). */
let concurrency = 1;

/** The environment's settings (null: none) and the mail lane's bound, set once at start. */
export function configureMail(smtp: SmtpConfig | null, mailsAtOnce: number) {
  cached?.transport.close();
  cached = null;
  configureEnvironmentSmtp(smtp);
  concurrency = mailsAtOnce;
}

/** Every mail goes through the one mail server: one lane for all of them, in no set order. */
export const mailRoute = (): Route => ({ lane: "mail", limit: concurrency });

/** Whether e-mail can go out at all; invitations show their links to the inviter when it cannot. */
export async function mailConfigured(): Promise<boolean> {
  return (await effectiveSmtp()) !== null;
}

function createTransport(smtp: SmtpConfig, timeouts = { connection: CONNECTION_TIMEOUT_MS, socket: SOCKET_TIMEOUT_MS }): Transporter {
  // Loaded at the first mail, not at start: it holds about a megabyte that a server without
  // mail never needs.
  const nodemailer = require("nodemailer") as typeof import("nodemailer");
  return nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === "tls",
    // starttls: refuse to send in the clear to a server that does not offer STARTTLS.
    requireTLS: smtp.security === "starttls",
    ignoreTLS: smtp.security === "none",
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
    tls: smtp.caFile ? { ca: readFileSync(smtp.caFile, "utf8") } : undefined,
    connectionTimeout: timeouts.connection,
    greetingTimeout: timeouts.connection,
    socketTimeout: timeouts.socket,
  });
}

function transportFor(smtp: SmtpConfig): Transporter {
  const key = JSON.stringify(smtp);
  if (cached?.key !== key) {
    cached?.transport.close();
    cached = { key, transport: createTransport(smtp) };
  }
  return cached.transport;
}

/** The domain of a From address, for Message-IDs. */
function domainOf(from: string | undefined): string {
  const match = /@([^>\s]+)>?\s*$/.exec(from ?? "");
  return match ? match[1] : "parley.invalid";
}

/**
 * The Message-ID of an outbox item's mail: the same on every try and after a restart, so a
 * mail repeated by a crash between sending and marking it sent can be recognised as one.
 * The creation time keeps IDs apart between databases whose outbox IDs restart from 1.
 */
export async function messageIdFor(attempt: Pick<DeliveryAttempt, "itemId" | "createdAt">): Promise<string> {
  return `<outbox.${attempt.itemId}.${attempt.createdAt}@${domainOf((await effectiveSmtp())?.settings.from)}>`;
}

/**
 * Sends one e-mail. A refusal the server calls permanent (a 5xx answer to the recipient or the
 * message) throws GiveUp; anything else (server down, 4xx, timeouts, authentication) throws
 * RetryLater, since an administrator can fix it; a 4xx for the recipient alone says the server
 * answered, so other mails need not wait. Throws GiveUp when no SMTP server is set up; the
 * runner holds mail back before that happens (mailConfigured).
 */
export async function sendMail(mail: Mail, messageId: string): Promise<void> {
  const settings = (await effectiveSmtp())?.settings;
  if (!settings) throw new GiveUp("No SMTP server is configured (PARLEY_SMTP_HOST, or the admin console's Server section)");
  try {
    await transportFor(settings).sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, messageId });
  } catch (error) {
    throw classify(error);
  }
}

/**
 * Sends one message through the given settings right away, on a connection of its own, within
 * TEST_DEADLINE_MS (the browser's "send me a test e-mail", `parley mail-test`). Throws an Error
 * whose message is the server's or the connection's own words.
 */
export async function sendMailNow(settings: SmtpConfig, mail: Mail, messageId = `<mail-test.${crypto.randomUUID()}@${domainOf(settings.from)}>`): Promise<void> {
  const transport = createTransport(settings, { connection: TEST_DEADLINE_MS, socket: TEST_DEADLINE_MS });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer from ${settings.host}:${settings.port} within ${TEST_DEADLINE_MS / 1000} s`)), TEST_DEADLINE_MS);
  });
  try {
    await Promise.race([transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId }), deadline]);
  } catch (error) {
    throw new Error(errorText(error));
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}

/** The message `parley mail-test` and the browser's test button send. */
export const testMail = (to: string, { host, port, security }: SmtpConfig): Mail => ({
  to,
  subject: "Parley test message",
  text: `This is a test message from Parley, sent through ${host}:${port} (${security}).\nIf you can read it, Parley can send e-mail.\n`,
});

interface SmtpError {
  message?: string;
  responseCode?: number;
  command?: string;
}

const errorText = (error: unknown) => (error as SmtpError | null)?.message ?? String(error);

function classify(error: unknown): Error {
  const { responseCode, command } = (error ?? {}) as SmtpError;
  const code = typeof responseCode === "number" ? responseCode : 0;
  if (code >= 500 && code < 600 && /^(RCPT|DATA|MAIL)/i.test(command ?? "")) return new GiveUp(errorText(error));
  return new RetryLater(errorText(error), { destinationAnswered: code >= 400 && code < 500 && /^RCPT/i.test(command ?? "") });
}
