#!/usr/bin/env bun
import { ConfigError } from "./config";
import { DataDirError } from "./db/client";
import { NewerDatabaseError } from "./db/migrate";
import { runInit } from "./cli/init";
import { runServe } from "./cli/serve";
import { UsageError } from "./cli/errors";
import { INIT_USAGE, MAIN_USAGE, SERVE_USAGE } from "./cli/usage";
import { log } from "./log";
import { SERVER_VERSION } from "./version";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case "serve":
      return runServe(rest);
    case "init":
      return runInit(rest);
    case "version":
    case "--version":
      console.log(SERVER_VERSION);
      return 0;
    case "help":
    case "--help":
    case "-h":
      console.log(rest[0] === "serve" ? SERVE_USAGE : rest[0] === "init" ? INIT_USAGE : MAIN_USAGE);
      return 0;
    default:
      if (command.startsWith("-")) return runServe(argv);
      throw new UsageError(`Unknown command '${command}'.\n\n${MAIN_USAGE}`);
  }
}

try {
  const code = await main(process.argv.slice(2));
  log.flush();
  process.exit(code);
} catch (error) {
  log.flush();
  const known = error instanceof UsageError || error instanceof ConfigError || error instanceof DataDirError || error instanceof NewerDatabaseError;
  // parseArgs reports unknown or malformed options with these codes.
  const badOption = typeof (error as { code?: string }).code === "string" && (error as { code: string }).code.startsWith("ERR_PARSE_ARGS");
  if (known || badOption) {
    console.error(`parley: ${(error as Error).message}`);
    process.exit(badOption || error instanceof UsageError ? 2 : 1);
  }
  console.error(`parley: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
}
