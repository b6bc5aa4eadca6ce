import { INVITE_USAGE } from "./invite";
import { SMTP_USAGE } from "./smtpOptions";

export const MAIN_USAGE = `Parley: a self-hosted team chat server in one executable.

Usage: parley COMMAND [OPTIONS]

Commands:
  serve     Run the server (the default when no command is given)
  init      Create the organization and its owner without the setup page
  mail-test Send a test e-mail with the SMTP settings
  invite    Invite people by e-mail and print their sign-up links
  backup    Write a backup of the data directory (safe while the server runs)
  restore   Restore a backup into a new data directory, after checking it
  health    Ask a running server whether it is healthy (exit 0) or not (exit 1)
  migrate-to-postgres
            Copy the data directory's database into PostgreSQL, for a cluster
  version   Print the version
  help      Show this help, or 'parley help COMMAND' for one command

Run 'parley COMMAND --help' for the options of a command.
`;

export const SERVE_USAGE = `Usage: parley serve [--init] [--data-dir DIR] [--host HOST] [--port PORT]
                    [--tls-cert FILE --tls-key FILE] [--trusted-proxies LIST]
                    [--database-url URL] [--bus-url URL --node-id NAME] [--node-url URL] [--files-dir DIR]

Runs the chat server on an existing data directory. It refuses to start on a directory that
is missing or holds no database (a mistyped --data-dir must not become a new, empty server),
on a read-only one, and on a damaged database (it says how to restore).

With --init it may start a new server: it creates the directory and the database when there
is none, and says so in its log; on an existing database it just serves. Until an organization
exists, the log shows a one-time setup code that the setup page in the browser asks for (or
create the organization with 'parley init' beforehand). Stop it with Ctrl-C or SIGTERM.

Options:
  --init           Create a new data directory and database if there is none
  --data-dir DIR   Where the database and state live (env PARLEY_DATA_DIR, default ./data)
  --host HOST      Address to listen on (env PARLEY_HOST, default 0.0.0.0)
  --port PORT      Port to listen on; 0 picks a free one (env PARLEY_PORT, default 8080)
  --tls-cert FILE  Serve HTTPS with this PEM certificate (chain), e.g. fullchain.pem
                   (env PARLEY_TLS_CERT); needs --tls-key. Read at start: restart to renew
  --tls-key FILE   The certificate's unencrypted PEM private key (env PARLEY_TLS_KEY)
  --trusted-proxies LIST
                   Comma-separated addresses or ranges (10.0.0.0/8) of reverse proxies in
                   front of Parley (env PARLEY_TRUSTED_PROXIES, default none). Only from
                   these are X-Forwarded-For (the client's address, for sign-in limits and
                   sessions) and X-Forwarded-Proto (https: Secure cookies) believed
  --database-url URL
                   Keep the data in this PostgreSQL database instead of SQLite in the data
                   directory (env PARLEY_DATABASE_URL; postgres://USER:PASSWORD@HOST:PORT/DB)
  --bus-url URL    Run as one node of a cluster on this NATS JetStream server (env
                   PARLEY_BUS_URL, nats://HOST:PORT); needs --database-url and --node-id
  --node-id NAME   This node's name, unique in the cluster (env PARLEY_NODE_ID)
  --node-url URL   Where the other nodes reach this one (env PARLEY_NODE_URL,
                   default http://127.0.0.1:PORT)
  --files-dir DIR  Uploaded files here rather than in the data directory: a directory
                   every node shares (env PARLEY_FILES_DIR)
  -h, --help       Show this help

Environment:
  PARLEY_LOG_LEVEL                     debug, info (default), warn or error
  PARLEY_HEARTBEAT_SECONDS             Event-queue heartbeat interval (default 60)
  PARLEY_QUEUE_TIMEOUT_SECONDS         Idle event queues are removed after this (default 600)
  PARLEY_MAX_QUEUE_TIMEOUT_SECONDS     The longest idle lifetime a client may ask for with
                                       idle_queue_timeout; "mobile" gets it (default 604800)
  PARLEY_QUEUE_MAX_EVENTS              Unread events one queue may hold (default 10000)
  PARLEY_QUEUE_MAX_MB                  Megabytes of unread events (as JSON) one queue may hold
                                       (default 32)
  PARLEY_LOGIN_FAILURE_LIMIT           Failed logins allowed for one account from one address
                                       within the window (default 10)
  PARLEY_LOGIN_ADDRESS_FAILURE_LIMIT   Failed logins allowed from one address, all accounts
                                       (default 50); not counted where the account signed in lately
  PARLEY_LOGIN_ACCOUNT_FAILURE_LIMIT   Failed logins allowed for one account, all addresses
                                       (default 100); not counted where the account signed in lately
  PARLEY_LOGIN_FAILURE_WINDOW_SECONDS  The window for those limits; a limit of 0 is off (default 900)
  PARLEY_OUTBOX_RETRY_BASE_SECONDS     First delay before retrying a failed e-mail or webhook,
                                       doubled on each failure (default 60)
  PARLEY_OUTBOX_RETRY_MAX_SECONDS      Longest delay between retries (default 3600)
  PARLEY_OUTBOX_MAX_ATTEMPTS           Tries before an e-mail is given up (default 30, about a day)
  PARLEY_OUTBOX_SWEEP_SECONDS          How often due retries are looked for (default 30)
  PARLEY_BACKUP_SCHEDULE               When to back up, a cron pattern (default "0 3 * * *",
                                       daily at 03:00 local time); "off" for never
  PARLEY_BACKUP_DIR                    Where scheduled backups go (default DATA_DIR/backups)
  PARLEY_BACKUP_KEEP                   Scheduled backups kept, the newest (default 7)
  PARLEY_MEMORY_RELEASE_SECONDS        How often to look whether the server has gone quiet
                                       holding memory it can give back (default 10; 0: never)

${SMTP_USAGE}
`;

export const INIT_USAGE = `Usage: parley init --data-dir DIR --org-name NAME --email EMAIL --password PASS [--full-name NAME] [--url URL]

Creates the organization and its owner without a prompt, for scripts and tests, and the data
directory and database first if there are none. Refuses, changing nothing, when the data
directory already holds an organization or a damaged database.

Options:
  --data-dir DIR     Where the database lives (env PARLEY_DATA_DIR, default ./data)
  --org-name NAME    The organization's name (at most 40 characters)
  --email EMAIL      The owner's e-mail address, which is also their login
  --password PASS    The owner's password (at least 8 characters)
  --full-name NAME   The owner's name (default: the part of the e-mail before @)
  --url URL          The URL people will reach Parley at (default http://localhost:8080)
  -h, --help         Show this help
`;

export const MAIL_TEST_USAGE = `Usage: parley mail-test --to ADDRESS [SMTP OPTIONS]

Sends one test message at once with the SMTP settings the server would use (environment
PARLEY_SMTP_* or the options below), and says whether the mail server took it, or why not.
It needs no data directory and leaves the server's outbox alone.

Options:
  --to ADDRESS           Who gets the test message
  -h, --help             Show this help

${SMTP_USAGE}
`;

export const HEALTH_USAGE = `Usage: parley health [--url URL]

Asks a running server's GET /health whether it can serve: its database answers and its data
directory is there and writable. Exits 0 when it is healthy, 1 with the reason when it is not
or does not answer within 4 seconds. For health checks where there is no curl (the container
image runs it as its HEALTHCHECK).

Options:
  --url URL    The server's address (default: http://127.0.0.1:PORT with PARLEY_PORT, default
               8080; PARLEY_HOST when it is one address; https when PARLEY_TLS_CERT is set,
               and then the certificate is not checked)
  -h, --help   Show this help
`;

export const BACKUP_USAGE = `Usage: parley backup --out FILE|DIR [--data-dir DIR]

Writes one file, a gzipped tar, with everything in the data directory: a consistent copy of the
database as committed when the backup starts (the server may keep running and writing), the
uploaded files, avatars and custom emoji, and the saved event queues when the server is stopped.
It is written under a temporary name and renamed when complete. Restore it with 'parley restore';
any tar can list or unpack it too (tar tzf FILE).

Options:
  --out FILE|DIR   Where to write it. A directory (or a path ending in /, made if need be) gets
                   a dated name such as parley-backup-2026-11-25T030000Z.tar.gz; an existing
                   file is not overwritten
  --data-dir DIR   The data directory to back up (env PARLEY_DATA_DIR, default ./data)
  -h, --help       Show this help

The server also makes backups on a schedule: see PARLEY_BACKUP_SCHEDULE in 'parley serve --help'.
`;

export const RESTORE_USAGE = `Usage: parley restore FILE --data-dir NEWDIR [--files-from OLDDIR]

Restores a backup into a new (or empty) data directory, then 'parley serve --data-dir NEWDIR'
serves it. FILE is an archive from 'parley backup' or the scheduled backups, or a copy of the
database alone: the one Parley keeps in backups/ before upgrading a database, or the
administration page's download.

Everything is checked before anything is put in place: that it is a Parley backup, that its
database is undamaged (SQLite's full integrity check) and not from a newer Parley than this one,
and that every uploaded file matches its hash. A backup that fails is refused with the reason,
and NEWDIR is left as it was. An existing server's directory is never overwritten: to replace
one, stop it, move its data directory aside, and restore into the same path.

Options:
  --data-dir NEWDIR   The new data directory (required; it must not exist or be empty)
  --files-from OLDDIR With a copy of the database alone: take the uploaded files from this
                      data directory (hard links where on the same disk, copies otherwise)
  -h, --help          Show this help
`;

export const MIGRATE_TO_POSTGRES_USAGE = `Usage: parley migrate-to-postgres --data-dir DIR --database-url URL

Copies a server's SQLite database (in its data directory) into an empty PostgreSQL database,
the first step from one box to several nodes (docs/OPERATIONS.md, "From one box to three").
Stop the server first. The copy is one transaction: it shows its progress, checks every
table's row count and a SHA-256 checksum of its rows on both sides, and commits only if all
match. A target that already holds data is refused, changing nothing. Uploaded files stay
in the data directory.

Options:
  --data-dir DIR        The SQLite server's data directory (env PARLEY_DATA_DIR)
  --database-url URL    postgres://USER:PASSWORD@HOST:PORT/DATABASE, an empty database
                        (env PARLEY_DATABASE_URL)
  -h, --help            Show this help
`;

const USAGES: Record<string, string> = { "migrate-to-postgres": MIGRATE_TO_POSTGRES_USAGE, backup: BACKUP_USAGE, restore: RESTORE_USAGE, serve: SERVE_USAGE, init: INIT_USAGE, "mail-test": MAIL_TEST_USAGE, invite: INVITE_USAGE, health: HEALTH_USAGE };

/** The help text of one command, or undefined for a command that does not exist. */
export const usageOf = (command: string): string | undefined => USAGES[command];
