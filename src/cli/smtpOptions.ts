/**
 * The SMTP settings as command-line options, for `serve` and `mail-test`. Each stands for its
 * PARLEY_SMTP_* variable and wins over it; they are written into the environment before the
 * configuration is loaded, so config.ts checks both the same way. The password has no option:
 * a command line is visible to every user of the machine (ps), so it comes from
 * PARLEY_SMTP_PASSWORD only.
 */
export const SMTP_OPTIONS = {
  "smtp-host": { type: "string" },
  "smtp-port": { type: "string" },
  "smtp-security": { type: "string" },
  "smtp-user": { type: "string" },
  "smtp-from": { type: "string" },
  "smtp-ca-file": { type: "string" },
} as const;

const VARIABLES: Record<keyof typeof SMTP_OPTIONS, string> = {
  "smtp-host": "PARLEY_SMTP_HOST",
  "smtp-port": "PARLEY_SMTP_PORT",
  "smtp-security": "PARLEY_SMTP_SECURITY",
  "smtp-user": "PARLEY_SMTP_USER",
  "smtp-from": "PARLEY_SMTP_FROM",
  "smtp-ca-file": "PARLEY_SMTP_CA_FILE",
};

export function applySmtpOptions(values: Partial<Record<keyof typeof SMTP_OPTIONS, string | undefined>>) {
  for (const [option, variable] of Object.entries(VARIABLES) as [keyof typeof SMTP_OPTIONS, string][]) {
    const value = values[option];
    if (value !== undefined) process.env[variable] = value;
  }
}

export const SMTP_USAGE = `SMTP (outgoing e-mail; an option wins over its variable):
  --smtp-host HOST       Mail server (env PARLEY_SMTP_HOST; unset: e-mail waits in the outbox)
  --smtp-port PORT       (env PARLEY_SMTP_PORT; default 587, 465 with tls, 25 with none)
  --smtp-security MODE   starttls (default; refuses a server without it), tls (implicit TLS)
                         or none (env PARLEY_SMTP_SECURITY)
  --smtp-user USER       Sign in as USER (env PARLEY_SMTP_USER); the password comes from
                         PARLEY_SMTP_PASSWORD only, never the command line
  --smtp-from ADDRESS    The From address, e.g. 'Parley <noreply@chat.example.com>'; required
                         with a host (env PARLEY_SMTP_FROM)
  --smtp-ca-file FILE    PEM certificates to trust besides the system's (env PARLEY_SMTP_CA_FILE)`;
