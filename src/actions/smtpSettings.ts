import { isIP } from "node:net";
import { requireAdministrator } from "../access/users";
import type { SmtpConfig, SmtpSecurity } from "../config";
import { deleteServerSetting, writeServerSetting } from "../db/serverSettings";
import { read, write } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { SMTP_SETTING, type StoredSmtpSettings, effectiveSmtp, environmentSmtp, storedSmtp } from "../reads/smtpSettings";

/**
 * The SMTP relay an owner or administrator sets in the browser (PUT, DELETE and the test of
 * /server/smtp). Settings from the environment win, so saving is refused while they are set.
 */

export interface SmtpSettingsInput {
  host?: string;
  port?: number;
  security?: string;
  user?: string;
  /** Omitted or empty: the stored one, if the host and user stay the same. */
  password?: string;
  from?: string;
}

interface SmtpDelivery {
  /** Sends one test message through `settings` now; throws with the server's words. */
  sendTest(settings: SmtpConfig, to: string): Promise<void>;
  /** The stored settings changed: mail held for want of a relay may go now. */
  settingsChanged(): void;
}

// Sending lives in outbox/, above actions/; app.ts hands it in at start.
let delivery: SmtpDelivery = {
  sendTest: () => Promise.reject(new Error("Mail cannot be sent from this process")),
  settingsChanged: () => {},
};

export function configureSmtpDelivery(next: SmtpDelivery) {
  delivery = next;
}

const SECURITIES: SmtpSecurity[] = ["starttls", "tls", "none"];
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.?[^\s@<>()",;:\\[\]]*$/;
const NAMED_ADDRESS = /^(.*?)\s*<([^<>]*)>$/;
// Header injection: a line break in From would start a header of the sender's choosing.
const CONTROL = /[\u0000-\u001f\u007f]/;

export const looksLikeAddress = (text: string) => text.length <= 254 && ADDRESS.test(text) && !CONTROL.test(text);

/** An address, or a display name and an address: `noreply@example.com`, `Parley <noreply@example.com>`. */
function checkFrom(raw: string): string {
  const text = raw.trim();
  const named = NAMED_ADDRESS.exec(text);
  const address = named ? named[2].trim() : text;
  if (text === "" || CONTROL.test(text) || !looksLikeAddress(address) || (named !== null && /[<>]/.test(named[1]))) {
    throw badRequest(`'${raw}' is not a valid sender: use an address such as noreply@chat.example.com, or a name and an address such as Parley <noreply@chat.example.com>.`);
  }
  return text;
}

function checkHost(raw: string): string {
  const host = raw.trim();
  if (host === "") throw badRequest("The mail server's host name is required.");
  if (!HOSTNAME.test(host) && isIP(host) === 0) throw badRequest(`'${raw}' is not a valid host name or IP address.`);
  return host;
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw badRequest(`Invalid port ${port}: use a whole number from 1 to 65535 (587 for starttls, 465 for tls, 25 for none).`);
  return port;
}

function checkSecurity(raw: string): SmtpSecurity {
  const security = raw.trim().toLowerCase() as SmtpSecurity;
  if (!SECURITIES.includes(security)) throw badRequest(`Invalid security '${raw}': use starttls, tls or none.`);
  return security;
}

/**
 * The settings as they will be stored, checked. A password left out keeps the stored one only
 * for the same server and user: otherwise a changed host would carry the saved password to a
 * server of someone else's choosing.
 */
export function checkSmtpSettings(input: SmtpSettingsInput, stored: StoredSmtpSettings | null): StoredSmtpSettings {
  for (const name of ["host", "port", "security", "from"] as const) {
    if (input[name] === undefined) throw badRequest(`Missing '${name}' argument`, { var_name: name });
  }
  const host = checkHost(input.host!);
  const port = checkPort(input.port!);
  const security = checkSecurity(input.security!);
  const from = checkFrom(input.from!);
  const user = input.user?.trim() || null;
  if (user !== null && CONTROL.test(user)) throw badRequest("The user name may not contain control characters.");
  let password: string | null = null;
  if (user !== null) {
    const sameAccount = stored !== null && stored.host.toLowerCase() === host.toLowerCase() && stored.user === user;
    password = input.password || (sameAccount ? stored.password : null);
    if (!password) throw badRequest(sameAccount || stored === null ? "A password is needed with a user name." : "Enter the password again: the server or the user name changed.");
  }
  return { host, port, security, user, password, from };
}

function refuseWhileEnvironment() {
  if (environmentSmtp()) throw badRequest("The mail server is set by the environment (PARLEY_SMTP_HOST); change it there, or unset it to set it here.");
}

/** PUT /server/smtp. */
export async function saveSmtpSettings(actor: User, input: SmtpSettingsInput) {
  requireAdministrator(actor, "change the mail server settings");
  refuseWhileEnvironment();
  await write(async (tx) => writeServerSetting(tx, SMTP_SETTING, checkSmtpSettings(input, await storedSmtp(tx))));
  delivery.settingsChanged();
}

/** DELETE /server/smtp: mail waits in the outbox again (unless the environment sets a relay). */
export async function removeSmtpSettings(actor: User) {
  requireAdministrator(actor, "change the mail server settings");
  await write((tx) => deleteServerSetting(tx, SMTP_SETTING));
}

const givesSettings = (input: SmtpSettingsInput) => (["host", "port", "security", "user", "password", "from"] as const).some((name) => input[name] !== undefined);

/**
 * POST /server/smtp/test: one message now, through the given settings (tried before saving)
 * or else the ones in force, to `to` or the caller. A failure is BAD_REQUEST with the SMTP
 * server's or the connection's own words in `msg` and, alone, in `smtp_error`.
 */
export async function sendSmtpTest(actor: User, input: SmtpSettingsInput & { to?: string }): Promise<{ to: string }> {
  requireAdministrator(actor, "test the mail server settings");
  const to = input.to?.trim() || actor.deliveryEmail || "";
  if (!looksLikeAddress(to)) throw badRequest(to === "" ? "Missing 'to' argument: name the address to send the test e-mail to." : `'${to}' is not a valid e-mail address.`);
  let settings: SmtpConfig;
  if (givesSettings(input)) {
    settings = { ...checkSmtpSettings(input, await read((db) => storedSmtp(db))), caFile: null };
  } else {
    const effective = await effectiveSmtp();
    if (!effective) throw badRequest("No mail server is set up yet: give its settings to test them.");
    settings = effective.settings;
  }
  try {
    await delivery.sendTest(settings, to);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    throw badRequest(`The test e-mail could not be sent: ${text}`, { smtp_error: text });
  }
  return { to };
}
