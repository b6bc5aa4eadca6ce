import { readFileSync } from "node:fs";
import nodemailer, { type Transporter } from "nodemailer";
import type { SmtpConfig } from "../config";
import type { DeliveryAttempt } from "./deliverers";
import { GiveUp, RetryLater } from "./deliverers";

/**
 * Sending e-mail over SMTP with nodemailer. The settings come from the environment (config.ts
 * PARLEY_SMTP_*) through configureMail(), called once at start; without them nothing is sent
 * and mail items wait in the outbox (see mailConfigured).
 */

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

let settings: SmtpConfig | null = null;
let transport: Transporter | null = null;

/** Network timeouts: a silent server must not hold the outbox sender, which sends one item at a time. */
const CONNECTION_TIMEOUT_MS = 15_000;
const SOCKET_TIMEOUT_MS = 60_000;

export function configureMail(smtp: SmtpConfig | null) {
  transport?.close();
  settings = smtp;
  transport = smtp ? createTransport(smtp) : null;
}

/** Whether e-mail can go out at all; invitations show their links to the inviter when it cannot. */
export function mailConfigured(): boolean {
  return settings !== null;
}

function createTransport(smtp: SmtpConfig): Transporter {
  return nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.security === "tls",
    // starttls: refuse to send in the clear to a server that does not offer STARTTLS.
    requireTLS: smtp.security === "starttls",
    ignoreTLS: smtp.security === "none",
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
    tls: smtp.caFile ? { ca: readFileSync(smtp.caFile, "utf8") } : undefined,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    greetingTimeout: CONNECTION_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
  });
}

/** The domain of the From address, for Message-IDs. */
function fromDomain(): string {
  const match = /@([^>\s]+)>?\s*$/.exec(settings?.from ?? "");
  return match ? match[1] : "parley.invalid";
}

/**
 * The Message-ID of an outbox item's mail: the same on every try and after a restart, so a
 * mail repeated by a crash between sending and marking it sent can be recognised as one.
 * The creation time keeps IDs apart between databases whose outbox IDs restart from 1.
 */
export function messageIdFor(attempt: Pick<DeliveryAttempt, "itemId" | "createdAt">): string {
  return `<outbox.${attempt.itemId}.${attempt.createdAt}@${fromDomain()}>`;
}

/**
 * Sends one e-mail. A refusal the server calls permanent (a 5xx answer to the recipient or the
 * message) throws GiveUp; anything else (server down, 4xx, timeouts, authentication) throws
 * RetryLater, since an administrator can fix it. Throws GiveUp when no SMTP server is set up;
 * the runner holds mail back before that happens (mailConfigured).
 */
export async function sendMail(mail: Mail, messageId: string): Promise<void> {
  if (!transport || !settings) throw new GiveUp("No SMTP server is configured (PARLEY_SMTP_HOST)");
  try {
    await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, messageId });
  } catch (error) {
    throw classify(error);
  }
}

interface SmtpError {
  message?: string;
  responseCode?: number;
  command?: string;
}

function classify(error: unknown): Error {
  const { message, responseCode, command } = (error ?? {}) as SmtpError;
  const text = message ?? String(error);
  const permanent = typeof responseCode === "number" && responseCode >= 500 && responseCode < 600 && /^(RCPT|DATA|MAIL)/i.test(command ?? "");
  return permanent ? new GiveUp(text) : new RetryLater(text);
}
