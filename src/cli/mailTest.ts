import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { sendMailNow, testMail } from "../outbox/mail";
import { CommandError, UsageError } from "./errors";
import { applySmtpOptions, SMTP_OPTIONS } from "./smtpOptions";
import { MAIL_TEST_USAGE } from "./usage";

/**
 * `parley mail-test --to ADDRESS`: sends one message with the server's SMTP settings right away
 * (not through the outbox, and without a data directory), so an administrator sees at once
 * whether mail works, and the server's own error when it does not.
 */
export async function runMailTest(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { to: { type: "string" }, help: { type: "boolean", short: "h" }, ...SMTP_OPTIONS },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(MAIL_TEST_USAGE);
    return 0;
  }
  if (!values.to || !/^[^\s@]+@[^\s@]+$/.test(values.to)) throw new UsageError(`--to must be an e-mail address${values.to ? `, got '${values.to}'` : ""}.\nRun 'parley mail-test --help' for the options.`);
  applySmtpOptions(values);
  const config = loadConfig();
  if (!config.smtp) throw new CommandError("No SMTP server is configured: set PARLEY_SMTP_HOST and PARLEY_SMTP_FROM (or --smtp-host and --smtp-from).");
  const { host, port, security, from } = config.smtp;
  try {
    await sendMailNow(config.smtp, await testMail(values.to, config.smtp));
  } catch (error) {
    throw new CommandError(`Sending through ${host}:${port} (${security}) failed: ${(error as Error).message}`);
  }
  console.log(`Sent a test message to ${values.to} through ${host}:${port} (${security}) from ${from}.`);
  return 0;
}
