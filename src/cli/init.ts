import { parseArgs } from "node:util";
import { OrganizationExistsError, createOrganization } from "../actions/organization";
import { isSetUp } from "../reads/organization";
import { closeDatabase } from "../db/client";
import { openStore } from "../db/open";
import { redacted } from "../db/postgresClient";
import { ApiError } from "../http/errors";
import { loadConfig } from "../config";
import { INIT_USAGE } from "./usage";
import { CommandError, UsageError } from "./errors";

export async function runInit(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      "data-dir": { type: "string" },
      "org-name": { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      "full-name": { type: "string" },
      url: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(INIT_USAGE);
    return 0;
  }
  for (const required of ["org-name", "email", "password"] as const) {
    if (!values[required]) throw new UsageError(`--${required} is required.\nRun 'parley init --help' for the options.`);
  }
  const config = loadConfig({ dataDir: values["data-dir"] });
  const refusal = `${config.databaseUrl ? `The PostgreSQL database at ${redacted(config.databaseUrl)}` : config.dataDir} already holds an organization; nothing was changed.`;
  // Asking for an organization is asking for a new install; a damaged one is still refused.
  const { created } = await openStore(config, { newInstall: "allow" });
  const where = config.databaseUrl ? `the PostgreSQL database at ${redacted(config.databaseUrl)}` : config.dataDir;
  if (created === "directory") console.log(`Created a new Parley data directory at ${config.dataDir}.`);
  if (created === "database") console.log(`Created a new Parley database in ${where}.`);
  try {
    // Checked before the inputs, so re-running a setup script says what actually happened.
    if (await isSetUp()) throw new CommandError(refusal);
    const email = values.email!;
    const owner = await createOrganization({
      name: values["org-name"]!,
      url: values.url ?? "http://localhost:8080",
      ownerEmail: email,
      ownerPassword: values.password!,
      ownerFullName: values["full-name"] ?? email.split("@")[0],
    });
    console.log(`Created organization '${values["org-name"]}' in ${config.dataDir} with owner ${owner.email} (user id ${owner.id}).`);
    console.log(`Start the server with: parley serve --data-dir ${config.dataDir}`);
    return 0;
  } catch (error) {
    if (error instanceof OrganizationExistsError) throw new CommandError(refusal);
    // The organization's inputs were refused (short password, bad e-mail): an option's value is wrong.
    if (error instanceof ApiError) throw new UsageError(error.message);
    throw error;
  } finally {
    await closeDatabase();
  }
}
