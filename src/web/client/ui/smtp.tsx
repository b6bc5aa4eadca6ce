import { api, ApiFailure } from "./api";
import { Notice, errorText } from "./components";

/**
 * What the setup wizard's e-mail step and the console's mail server card share: the answer of
 * GET /server/smtp, the security choices, and a test e-mail with the mail server's own words.
 */

export type Security = "starttls" | "tls" | "none";

export interface SmtpAnswer {
  smtp: { host: string; port: number; security: Security; user: string | null; from: string; password_set: boolean } | null;
  source: "environment" | "database" | "none";
}

export const DEFAULT_PORTS: Record<Security, number> = { starttls: 587, tls: 465, none: 25 };

export const SECURITY_OPTIONS: Array<{ value: Security; label: string }> = [
  { value: "starttls", label: "STARTTLS (usually port 587)" },
  { value: "tls", label: "TLS from the start (usually port 465)" },
  { value: "none", label: "None: plain text (usually port 25)" },
];

/** `detail`: the mail server's or the connection's words, when the failure was theirs. */
export type TestOutcome = { ok: true; to: string } | { ok: false; message: string; detail: string | null };

export async function sendTestMail(params: Record<string, unknown>): Promise<TestOutcome> {
  try {
    const answer = await api<{ to: string }>("POST", "/server/smtp/test", params);
    return { ok: true, to: answer.to };
  } catch (error) {
    const detail = error instanceof ApiFailure && typeof error.body.smtp_error === "string" ? error.body.smtp_error : null;
    return { ok: false, message: errorText(error), detail };
  }
}

export function TestMailResult({ outcome }: { outcome: TestOutcome | null }) {
  if (!outcome) return null;
  if (outcome.ok) return <Notice kind="ok">A test e-mail went to {outcome.to}. Check that it arrived (look in the spam folder too).</Notice>;
  if (outcome.detail === null) return <Notice kind="error">{outcome.message}</Notice>;
  return (
    <Notice kind="error">
      <strong>The test e-mail could not be sent.</strong> What happened:
      <pre>{outcome.detail}</pre>
    </Notice>
  );
}
