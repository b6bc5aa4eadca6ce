import { parseArgs } from "node:util";
import { OrganizationExistsError, createOrganization } from "../actions/organization";
import { closeDatabase, openDatabase } from "../db/client";
import { ApiError } from "../http/errors";
import { loadConfig } from "../config";
import { INIT_USAGE } from "./usage";
import { UsageError } from "./errors";

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
    if (!values[required]) throw new UsageError(`--${required} is required.\n\n${INIT_USAGE}`);
  }
  const config = loadConfig({ dataDir: values["data-dir"] });
  openDatabase(config.dataDir);
  try {
    const email = values.email!;
    const owner = await createOrganization({
      name: values["org-name"]!,
      url: values.url ?? "http://localhost:8080",
      ownerEmail: email,
      ownerPassword: values.password!,
      ownerFullName: values["full-name"] ?? email.split("@")[0],
    });
    console.log(`Created organization '${values["org-name"]}' in ${config.dataDir} with owner ${owner.email} (user id ${owner.id}).`);
    return 0;
  } catch (error) {
    if (error instanceof OrganizationExistsError) {
      console.error(`parley init: ${config.dataDir} already holds an organization; nothing was changed.`);
      return 1;
    }
    if (error instanceof ApiError) {
      console.error(`parley init: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    closeDatabase();
  }
}
