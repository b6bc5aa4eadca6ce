import { requireAdministrator } from "../access/users";
import type { SmtpConfig, SmtpSecurity } from "../config";
import { readServerSetting } from "../db/serverSettings";
import { read } from "../db/transaction";
import type { Reader } from "../db/types";
import type { User } from "../db/users";

/**
 * Which SMTP relay mail goes out through. PARLEY_SMTP_* (config.ts), when PARLEY_SMTP_HOST is
 * set, win; otherwise the settings an administrator saved in the browser (server_settings
 * "smtp"). Both are looked up at send time, so saving settings needs no restart.
 */

/** The stored form of the relay's settings (server_settings name "smtp"). */
export interface StoredSmtpSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  user: string | null;
  password: string | null;
  from: string;
}

export const SMTP_SETTING = "smtp";

export type SmtpSource = "environment" | "database";

let environment: SmtpConfig | null = null;

/** Set at start (outbox/mail.ts configureMail) with the settings config.ts read from the environment. */
export function configureEnvironmentSmtp(smtp: SmtpConfig | null) {
  environment = smtp;
}

export const environmentSmtp = () => environment;

export const storedSmtp = async (db: Reader): Promise<StoredSmtpSettings | null> => (await readServerSetting<StoredSmtpSettings>(db, SMTP_SETTING)) ?? null;

/** The settings in force now and where they come from; null when no relay is set up at all. */
export async function effectiveSmtp(): Promise<{ settings: SmtpConfig; source: SmtpSource } | null> {
  if (environment) return { settings: environment, source: "environment" };
  const stored = await read((db) => storedSmtp(db));
  // A private CA is a file on the server's machine: only the environment names one.
  return stored ? { settings: { ...stored, caFile: null }, source: "database" } : null;
}

export interface SmtpSettingsAnswer {
  smtp: { host: string; port: number; security: SmtpSecurity; user: string | null; from: string; password_set: boolean } | null;
  source: SmtpSource | "none";
}

/** GET /server/smtp: the settings in force, never the password. */
export async function getSmtpSettings(viewer: User): Promise<SmtpSettingsAnswer> {
  requireAdministrator(viewer, "see the mail server settings");
  const effective = await effectiveSmtp();
  if (!effective) return { smtp: null, source: "none" };
  const { host, port, security, user, password, from } = effective.settings;
  return { smtp: { host, port, security, user, from, password_set: password !== null && password !== "" }, source: effective.source };
}
