#!/usr/bin/env bun
import { ConfigError } from "./config";
import { DataDirError } from "./db/client";
import { NewerDatabaseError, UpgradeFailedError } from "./db/migrate";
import { BackupError } from "./backup/manifest";
import { runBackup, runRestore } from "./cli/backup";
import { runHealth } from "./cli/health";
import { runInit } from "./cli/init";
import { runInvite } from "./cli/invite";
import { runMailTest } from "./cli/mailTest";
import { runMigrateToPostgres } from "./cli/migrateToPostgres";
import { runServe } from "./cli/serve";
import { CommandError, UsageError } from "./cli/errors";
import { MAIN_USAGE, usageOf } from "./cli/usage";
import { log } from "./log";
import { SERVER_VERSION } from "./version";

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = { "migrate-to-postgres": runMigrateToPostgres, serve: runServe, init: runInit, "mail-test": runMailTest, invite: runInvite, health: runHealth, backup: runBackup, restore: runRestore };

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === "help" || first === "--help" || first === "-h") return help(rest[0]);
  if (first === "version" || first === "--version") return version();
  // Plain `parley` (or `parley --port 9000`) runs the server.
  const [command, args] = first === undefined || first.startsWith("-") ? ["serve", argv] : [first, rest];
  const run = COMMANDS[command];
  if (!run) throw new UsageError(`Unknown command '${command}'.\n\n${MAIN_USAGE}`);
  try {
    return await run(args);
  } catch (error) {
    // node:util parseArgs reports unknown or malformed options with these codes.
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      throw new UsageError(`${(error as Error).message}\nRun 'parley ${command} --help' for the options.`);
    }
    throw error;
  }
}

function help(command: string | undefined): number {
  const text = command === undefined ? MAIN_USAGE : usageOf(command);
  if (text === undefined) throw new UsageError(`Unknown command '${command}'.\n\n${MAIN_USAGE}`);
  console.log(text);
  return 0;
}

function version(): number {
  console.log(SERVER_VERSION);
  return 0;
}

/** Errors whose message says all an operator needs; anything else is a bug and shows its stack. */
const EXPLAINED = [UsageError, CommandError, ConfigError, DataDirError, NewerDatabaseError, UpgradeFailedError, BackupError];

try {
  const code = await main(process.argv.slice(2));
  log.flush();
  process.exit(code);
} catch (error) {
  log.flush();
  if (EXPLAINED.some((kind) => error instanceof kind)) {
    console.error(`parley: ${(error as Error).message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  console.error(`parley: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
}
