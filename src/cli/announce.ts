import type { Created } from "../db/dataDir";
import { log } from "../log";

/**
 * What an operator must not miss in the start log: a new install (was that the intended
 * directory?) and the setup code. Warnings, so a quieter log level still shows them, framed
 * so they stand out among request lines.
 */

const RULE = "=".repeat(72);

export function announceNewInstall(dataDir: string, created: Exclude<Created, null>) {
  const what = created === "directory" ? `Created a new Parley data directory at ${dataDir}` : `Created a new Parley database in ${dataDir}`;
  log.warn(`${what} (--init). If your data should already be there, stop now and check --data-dir or PARLEY_DATA_DIR.`);
}

export function announceSetupCode(url: string, code: string) {
  // For the terminal only: the admin console's recent warnings must not show the code.
  const terminalOnly = { remember: false };
  log.warn(RULE, terminalOnly);
  log.warn(`This server has no organization yet. Open ${url} in a browser to set it up.`, terminalOnly);
  log.warn(`Setup code: ${code}`, terminalOnly);
  log.warn("The setup page asks for this code, so only someone who can read this log can set up the server.", terminalOnly);
  log.warn("It is valid until the organization is created, or until the server restarts.", terminalOnly);
  log.warn(RULE, terminalOnly);
}
