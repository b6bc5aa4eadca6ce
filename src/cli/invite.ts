import { parseArgs } from "node:util";
import { configureInvitations, inviteByEmail } from "../actions/invites";
import { loadConfig } from "../config";
import { closeDatabase } from "../db/client";
import { openStore } from "../db/open";
import { read } from "../db/transaction";
import { firstActiveOwner } from "../db/users";
import { ApiError } from "../http/errors";
import { Role } from "../model/roles";
import { isSetUp } from "../reads/organization";
import { CommandError, UsageError } from "./errors";

export const INVITE_USAGE = `Usage: parley invite --email ADDRESS [--email ADDRESS ...] [--data-dir DIR] [--as ROLE] [--expires-in-minutes N|never]

Invites people by e-mail on behalf of the organization's first owner and prints each one's
sign-up link, for an administrator to pass on when no mail server is configured (with one,
the invitation e-mail is also queued, and the running server sends it). It works while the
server runs; the server's clients learn of the new invitations when they next list them.

Options:
  --email ADDRESS              Who to invite; repeat for several
  --data-dir DIR               Where the database lives (env PARLEY_DATA_DIR, default ./data)
  --as ROLE                    owner, administrator, moderator, member (default) or guest
  --expires-in-minutes N       Link validity (default PARLEY_INVITATION_LINK_VALIDITY_MINUTES,
                               10 days); 'never' for a link that does not expire
  -h, --help                   Show this help
`;

const ROLES: Record<string, Role> = { owner: Role.OWNER, administrator: Role.ADMINISTRATOR, moderator: Role.MODERATOR, member: Role.MEMBER, guest: Role.GUEST };

export async function runInvite(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string", multiple: true },
      "data-dir": { type: "string" },
      as: { type: "string" },
      "expires-in-minutes": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(INVITE_USAGE);
    return 0;
  }
  if (!values.email?.length) throw new UsageError("--email is required.\nRun 'parley invite --help' for the options.");
  const role = ROLES[values.as ?? "member"];
  if (role === undefined) throw new UsageError(`--as must be one of ${Object.keys(ROLES).join(", ")}, got '${values.as}'.`);
  const expiry = values["expires-in-minutes"];
  if (expiry !== undefined && expiry !== "never" && !/^\d+$/.test(expiry)) throw new UsageError(`--expires-in-minutes must be a number of minutes or 'never', got '${expiry}'.`);
  const config = loadConfig({ dataDir: values["data-dir"] });
  await openStore(config);
  try {
    if (!await isSetUp()) throw new CommandError(`${config.dataDir} has no organization yet: set it up first.`);
    const owner = await read(firstActiveOwner);
    if (!owner) throw new CommandError("The organization has no active owner to invite on behalf of.");
    // The links are always printed here: handing them over is what this command is for.
    configureInvitations({ defaultValidityMinutes: config.invitationLinkValidityMinutes, mailConfigured: () => false });
    let links: Record<string, string> = {};
    try {
      const options = { expiresInMinutes: expiry === undefined ? undefined : expiry === "never" ? null : Number(expiry), inviteAs: role, streamIds: [], groupIds: [], includeRealmDefaultSubscriptions: true, notifyReferrerOnJoin: true };
      links = (await inviteByEmail(owner, values.email.join(","), options)).invite_links ?? {};
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      for (const [address, reason] of (error.extra.errors as [string, string, boolean][] | undefined) ?? []) console.error(`${address}: ${reason}`);
      links = (error.extra.invite_links as Record<string, string> | undefined) ?? {};
      if (Object.keys(links).length === 0) throw new CommandError(error.message);
    }
    for (const [address, link] of Object.entries(links)) console.log(`${address}\t${link}`);
    console.log(config.smtp ? "The invitation e-mails are queued; the running server sends them." : "No mail server is configured (PARLEY_SMTP_HOST): pass these links on yourself.");
    return 0;
  } finally {
    await closeDatabase();
  }
}
