import { Cron } from "croner";
import { resolve } from "node:path";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Config {
  dataDir: string;
  /** PostgreSQL's URL (postgres://...) when the database is there; null for SQLite in the data dir. */
  databaseUrl: string | null;
  /** Where uploaded files live when not in the data dir: a directory every node of a cluster shares. */
  filesDir: string | null;
  /** The cluster's NATS JetStream bus (nats://...); null for a single process. */
  busUrl: string | null;
  /** This node's name in a cluster, unique among its nodes. */
  nodeId: string | null;
  /** Where the other nodes reach this one; by default http://127.0.0.1:PORT. */
  nodeUrl: string | null;
  /** On PostgreSQL, how often to look whether anything changed the database behind this process's back (jobs/cacheBackstop.ts). */
  changeCheckMs: number;
  host: string;
  port: number;
  logLevel: LogLevel;
  /** Event queue heartbeat interval (spec 6: one minute). */
  heartbeatSeconds: number;
  /** A queue idle this long is garbage-collected (spec 8: ten minutes). */
  queueTimeoutSeconds: number;
  /** The longest idle lifetime a client may ask for with idle_queue_timeout ("mobile" gets it). */
  maxQueueTimeoutSeconds: number;
  /** Unread events one queue may hold before it is dropped, bounding a dead client's memory. */
  queueMaxEvents: number;
  /** Megabytes (counted as characters of their JSON) those unread events may make before the queue is dropped. */
  queueMaxMegabytes: number;
  /** Event queues one user may hold; registering one more drops their longest-idle queue. */
  maxQueuesPerUser: number;
  /** Event queues the whole server may hold; past it the longest-idle queue anywhere goes. */
  maxQueuesTotal: number;
  /** Wrong passwords allowed for one account from one address within the window. */
  loginFailureLimit: number;
  /** Wrong passwords allowed from one address, over all accounts, within the window. */
  loginAddressFailureLimit: number;
  /** Wrong passwords allowed for one account, from all addresses, within the window. */
  loginAccountFailureLimit: number;
  loginFailureWindowSeconds: number;
  /** How long one delete_topic request may keep deleting before answering complete: false. */
  deleteTopicBudgetMs: number;
  /** Messages deleted per transaction by delete_topic. */
  deleteTopicBatchSize: number;
  /** How long one mark_all_as_read request may keep marking before answering `complete: false`. */
  markAllReadBudgetMs: number;
  /** How often due scheduled messages are looked for, in whole seconds (1-59). */
  scheduledCheckSeconds: number;
  /** How long an outgoing webhook's service may take to answer before the try counts as failed. */
  webhookTimeoutSeconds: number;
  /** Tries of one outgoing-webhook notification before its bot's owner is told it failed. */
  webhookMaxAttempts: number;
  /** Whether outgoing webhooks may reach loopback and link-local addresses (a service on this machine). */
  webhookAllowLoopback: boolean;
  /** Outgoing mail; null when PARLEY_SMTP_HOST is unset (mail then waits in the outbox). */
  smtp: SmtpConfig | null;
  /** First retry delay of a failed outbox item; each further failure doubles it. */
  outboxRetryBaseSeconds: number;
  /** The longest delay between two tries of an outbox item. */
  outboxRetryMaxSeconds: number;
  /** Tries before an outbox item is given up, for kinds that set no number of their own. */
  outboxMaxAttempts: number;
  /** How often the outbox sender looks for due items besides being nudged after a commit. */
  outboxSweepSeconds: number;
  /** E-mails sent at once (the mail lane's bound), each on a connection of its own. */
  outboxMailConcurrency: number;
  /** Requests under way at once to one outgoing-webhook service (scheme, host and port). */
  outboxWebhookConcurrency: number;
  /** Validity of an invitation whose creator named none (spec 8: INVITATION_LINK_VALIDITY_MINUTES, 10 days). */
  invitationLinkValidityMinutes: number;
  /** How often expired invitations are marked expired (they are refused at acceptance regardless). */
  inviteExpirySweepSeconds: number;
  /** How often missed-message e-mails that are due are looked for. */
  missedMessageEmailCheckSeconds: number;
  /** At most this long before a missed-message e-mail is due, whatever people's batching period; null: their period. */
  missedMessageEmailDelayCapSeconds: number | null;
  /** How often clients are told to report presence (register's server_presence_ping_interval_seconds; reference: 60). */
  presencePingIntervalSeconds: number;
  /** A user with no report this recent shows as offline (server_presence_offline_threshold_seconds; reference: 140). */
  presenceOfflineThresholdSeconds: number;
  /** How often the event loop's lateness is sampled for GET /metrics; 0: never. */
  eventLoopSampleMs: number;
  /** How often the search index is merged between requests; 0: by the commits that need it. */
  searchIndexMergeMs: number;
  /** How often presence kept in memory is written to the database (also at a clean stop). */
  presenceFlushSeconds: number;
  /** A browser session unused this long ends (it is extended as it is used). */
  sessionIdleSeconds: number;
  /** PEM certificate chain and key files: with both, Parley serves HTTPS itself (PARLEY_TLS_CERT, PARLEY_TLS_KEY). */
  tlsCert: string | null;
  tlsKey: string | null;
  /**
   * Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed
   * (PARLEY_TRUSTED_PROXIES, comma-separated); empty, no forwarded header is believed.
   */
  trustedProxies: string[];
  /** "text" (one readable line per event) or "json" (one JSON object per line), PARLEY_LOG_FORMAT. */
  logFormat: "text" | "json";
  /** A bearer token that lets non-loopback clients read /metrics (PARLEY_METRICS_TOKEN); loopback needs none. */
  metricsToken: string | null;
  /** When the server backs itself up, a cron pattern (PARLEY_BACKUP_SCHEDULE; "off": never). */
  backupSchedule: string | null;
  /** Where scheduled backups go (PARLEY_BACKUP_DIR; default backups/ in the data dir). */
  backupDir: string | null;
  /** Scheduled backups kept; older ones are deleted after each new one (PARLEY_BACKUP_KEEP). */
  backupKeep: number;
  /** /health warns when the data directory's disk has less free than this, in MB (PARLEY_DISK_LOW_MB). */
  diskLowMegabytes: number;
  /** How often the server looks whether it has gone quiet holding memory it can give back (jobs/memoryRelease.ts); 0: never. */
  memoryReleaseSeconds: number;
  /** How many API requests of each kind one account (or address) may make (PARLEY_RATE_LIMIT_*). */
  rateLimits: RateLimits;
  /**
   * For test suites only (PARLEY_TEST_ONLY_WEAK_PASSWORD_HASHING=1): passwords are hashed with
   * argon2id at its lowest cost, which costs an attacker holding the database nothing.
   */
  weakPasswordHashing: boolean;
  /**
   * Whether the Markdown renderer is compiled at start by rendering a sample
   * (PARLEY_RENDERER_WARM_UP, on by default): about 0.1 s of CPU per start, so that the first
   * messages render in a few milliseconds rather than 50. Test suites, which start hundreds of
   * servers, turn it off.
   */
  rendererWarmUp: boolean;
}

/** At most `count` (requests, or MiB for upload bytes) in any `seconds`; null: no limit. */
export type RateRule = { count: number; seconds: number } | null;

/**
 * The request buckets (http/requestLimits.ts). Per account: every API request (`api`), the
 * long-poll (`events`, counted apart), sends, uploads (files and MiB), event-queue
 * registrations. Per client address: requests without credentials (`address`) and sign-ups.
 */
export interface RateLimits {
  api: RateRule;
  events: RateRule;
  sends: RateRule;
  uploads: RateRule;
  uploadMib: RateRule;
  register: RateRule;
  address: RateRule;
  signUps: RateRule;
}

export type SmtpSecurity = "starttls" | "tls" | "none";

export interface SmtpConfig {
  host: string;
  port: number;
  /** starttls: upgrade a plain connection, refusing a server that cannot; tls: TLS from the first byte; none: plain text. */
  security: SmtpSecurity;
  user: string | null;
  password: string | null;
  /** The From header, e.g. "Parley <noreply@chat.example.com>". */
  from: string;
  /** PEM certificates to trust besides the system's (a private CA or a self-signed server). */
  caFile: string | null;
}

const env = (name: string) => process.env[name];

function intFromEnv(name: string, fallback: number): number {
  const raw = env(name);
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`${name} must be a non-negative number, got '${raw}'`);
  return value;
}

export class ConfigError extends Error {}

/** SMTP settings from PARLEY_SMTP_*; null when no host is set. The port defaults by security (587, 465, 25). */
function smtpFromEnv(): SmtpConfig | null {
  const host = env("PARLEY_SMTP_HOST");
  if (!host) return null;
  const security = (env("PARLEY_SMTP_SECURITY") || "starttls") as SmtpSecurity;
  if (!["starttls", "tls", "none"].includes(security)) throw new ConfigError(`PARLEY_SMTP_SECURITY must be starttls, tls or none, got '${security}'`);
  const port = intFromEnv("PARLEY_SMTP_PORT", security === "tls" ? 465 : security === "starttls" ? 587 : 25);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(`PARLEY_SMTP_PORT must be 1-65535, got '${port}'`);
  const from = env("PARLEY_SMTP_FROM");
  if (!from) throw new ConfigError("PARLEY_SMTP_FROM is required with PARLEY_SMTP_HOST (the sender address, e.g. 'Parley <noreply@chat.example.com>')");
  const user = env("PARLEY_SMTP_USER") || null;
  const password = env("PARLEY_SMTP_PASSWORD") ?? null;
  if (user && password === null) throw new ConfigError("PARLEY_SMTP_PASSWORD is required with PARLEY_SMTP_USER");
  return { host, port, security, user, password: user ? password : null, from, caFile: env("PARLEY_SMTP_CA_FILE") || null };
}

/**
 * One bucket's rule from PARLEY_RATE_LIMIT_<NAME>: "COUNT/SECONDS" (200/60: 200 in any minute),
 * or "off" (also 0); the default when unset.
 */
function rateRuleFromEnv(name: string, fallback: RateRule): RateRule {
  const raw = (env(name) ?? "").trim();
  if (raw === "") return fallback;
  if (["off", "0"].includes(raw.toLowerCase())) return null;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new ConfigError(`${name} must be COUNT/SECONDS such as 200/60 (200 in any 60 seconds), or off; got '${raw}'`);
  return { count: Number(match[1]), seconds: Number(match[2]) };
}

/** PARLEY_RATE_LIMITS=off turns every bucket off; otherwise each has its own variable. */
function rateLimitsFromEnv(): RateLimits {
  const master = (env("PARLEY_RATE_LIMITS") ?? "").trim().toLowerCase();
  if (!["", "on", "off"].includes(master)) throw new ConfigError(`PARLEY_RATE_LIMITS must be on or off, got '${master}'`);
  const rule = (name: string, count: number, seconds: number) => (master === "off" ? null : rateRuleFromEnv(`PARLEY_RATE_LIMIT_${name}`, { count, seconds }));
  return {
    api: rule("API", 200, 60),
    events: rule("EVENTS", 600, 60),
    sends: rule("SENDS", 60, 60),
    uploads: rule("UPLOADS", 30, 60),
    uploadMib: rule("UPLOAD_MIB", 200, 3600),
    register: rule("REGISTER", 30, 60),
    address: rule("ADDRESS", 100, 60),
    signUps: rule("SIGNUPS", 20, 3600),
  };
}

/** Every day at 03:00 local time unless told otherwise; "off" turns scheduled backups off. */
function backupScheduleFromEnv(): string | null {
  const raw = (env("PARLEY_BACKUP_SCHEDULE") ?? "").trim();
  if (raw === "") return "0 3 * * *";
  if (["off", "none", "false", "0"].includes(raw.toLowerCase())) return null;
  try {
    new Cron(raw, { paused: true }).stop();
  } catch (error) {
    throw new ConfigError(`PARLEY_BACKUP_SCHEDULE must be a cron pattern such as "0 3 * * *" (daily at 03:00) or "off", got '${raw}': ${(error as Error).message}`);
  }
  return raw;
}

/** Settings from the environment, overridden by command-line options. */
export function loadConfig(overrides: Partial<Config> = {}): Config {
  const level = (env("PARLEY_LOG_LEVEL") ?? "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(level)) throw new ConfigError(`PARLEY_LOG_LEVEL must be debug, info, warn or error`);
  const config: Config = {
    dataDir: env("PARLEY_DATA_DIR") || "./data",
    databaseUrl: env("PARLEY_DATABASE_URL") || null,
    filesDir: env("PARLEY_FILES_DIR") || null,
    busUrl: env("PARLEY_BUS_URL") || null,
    nodeId: env("PARLEY_NODE_ID") || null,
    nodeUrl: env("PARLEY_NODE_URL") || null,
    changeCheckMs: Math.max(10, intFromEnv("PARLEY_CHANGE_CHECK_MS", 1000)),
    host: env("PARLEY_HOST") || "0.0.0.0",
    port: intFromEnv("PARLEY_PORT", 8080),
    logLevel: level,
    heartbeatSeconds: intFromEnv("PARLEY_HEARTBEAT_SECONDS", 60),
    queueTimeoutSeconds: intFromEnv("PARLEY_QUEUE_TIMEOUT_SECONDS", 600),
    maxQueueTimeoutSeconds: intFromEnv("PARLEY_MAX_QUEUE_TIMEOUT_SECONDS", 7 * 24 * 3600),
    queueMaxEvents: intFromEnv("PARLEY_QUEUE_MAX_EVENTS", 10_000),
    queueMaxMegabytes: intFromEnv("PARLEY_QUEUE_MAX_MB", 32),
    maxQueuesPerUser: intFromEnv("PARLEY_MAX_QUEUES_PER_USER", 50),
    maxQueuesTotal: intFromEnv("PARLEY_MAX_QUEUES_TOTAL", 20_000),
    loginFailureLimit: intFromEnv("PARLEY_LOGIN_FAILURE_LIMIT", 10),
    loginAddressFailureLimit: intFromEnv("PARLEY_LOGIN_ADDRESS_FAILURE_LIMIT", 50),
    loginAccountFailureLimit: intFromEnv("PARLEY_LOGIN_ACCOUNT_FAILURE_LIMIT", 100),
    loginFailureWindowSeconds: intFromEnv("PARLEY_LOGIN_FAILURE_WINDOW_SECONDS", 900),
    deleteTopicBudgetMs: intFromEnv("PARLEY_DELETE_TOPIC_BUDGET_MS", 5000),
    deleteTopicBatchSize: intFromEnv("PARLEY_DELETE_TOPIC_BATCH_SIZE", 200),
    markAllReadBudgetMs: intFromEnv("PARLEY_MARK_ALL_READ_BUDGET_MS", 5000),
    scheduledCheckSeconds: intFromEnv("PARLEY_SCHEDULED_CHECK_SECONDS", 1),
    webhookTimeoutSeconds: intFromEnv("PARLEY_WEBHOOK_TIMEOUT_SECONDS", 10),
    webhookMaxAttempts: Math.max(1, intFromEnv("PARLEY_WEBHOOK_MAX_ATTEMPTS", 4)),
    webhookAllowLoopback: ["1", "true", "yes"].includes((env("PARLEY_WEBHOOK_ALLOW_LOOPBACK") ?? "").toLowerCase()),
    smtp: smtpFromEnv(),
    outboxRetryBaseSeconds: intFromEnv("PARLEY_OUTBOX_RETRY_BASE_SECONDS", 60),
    outboxRetryMaxSeconds: intFromEnv("PARLEY_OUTBOX_RETRY_MAX_SECONDS", 3600),
    outboxMaxAttempts: intFromEnv("PARLEY_OUTBOX_MAX_ATTEMPTS", 30),
    outboxSweepSeconds: intFromEnv("PARLEY_OUTBOX_SWEEP_SECONDS", 30),
    outboxMailConcurrency: Math.max(1, intFromEnv("PARLEY_OUTBOX_MAIL_CONCURRENCY", 2)),
    outboxWebhookConcurrency: Math.max(1, intFromEnv("PARLEY_OUTBOX_WEBHOOK_CONCURRENCY", 2)),
    invitationLinkValidityMinutes: intFromEnv("PARLEY_INVITATION_LINK_VALIDITY_MINUTES", 14_400),
    inviteExpirySweepSeconds: intFromEnv("PARLEY_INVITE_EXPIRY_SWEEP_SECONDS", 300),
    missedMessageEmailCheckSeconds: Math.max(1, intFromEnv("PARLEY_MISSED_MESSAGE_EMAIL_CHECK_SECONDS", 30)),
    missedMessageEmailDelayCapSeconds: process.env.PARLEY_MISSED_MESSAGE_EMAIL_DELAY_SECONDS ? Math.max(0, intFromEnv("PARLEY_MISSED_MESSAGE_EMAIL_DELAY_SECONDS", 120)) : null,
    presencePingIntervalSeconds: Math.max(1, intFromEnv("PARLEY_PRESENCE_PING_INTERVAL_SECONDS", 60)),
    presenceOfflineThresholdSeconds: Math.max(1, intFromEnv("PARLEY_PRESENCE_OFFLINE_THRESHOLD_SECONDS", 140)),
    presenceFlushSeconds: Math.max(1, intFromEnv("PARLEY_PRESENCE_FLUSH_SECONDS", 15)),
    eventLoopSampleMs: Math.max(0, intFromEnv("PARLEY_EVENT_LOOP_SAMPLE_MS", 100)),
    searchIndexMergeMs: Math.max(0, intFromEnv("PARLEY_SEARCH_INDEX_MERGE_MS", 250)),
    sessionIdleSeconds: Math.max(1, intFromEnv("PARLEY_SESSION_IDLE_SECONDS", 14 * 24 * 3600)),
    tlsCert: env("PARLEY_TLS_CERT") || null,
    tlsKey: env("PARLEY_TLS_KEY") || null,
    trustedProxies: (env("PARLEY_TRUSTED_PROXIES") ?? "").split(",").map((address) => address.trim()).filter(Boolean),
    logFormat: (env("PARLEY_LOG_FORMAT") || "text") as "text" | "json",
    metricsToken: env("PARLEY_METRICS_TOKEN") || null,
    backupSchedule: backupScheduleFromEnv(),
    backupDir: env("PARLEY_BACKUP_DIR") || null,
    backupKeep: Math.max(1, intFromEnv("PARLEY_BACKUP_KEEP", 7)),
    diskLowMegabytes: intFromEnv("PARLEY_DISK_LOW_MB", 512),
    memoryReleaseSeconds: intFromEnv("PARLEY_MEMORY_RELEASE_SECONDS", 10),
    rateLimits: rateLimitsFromEnv(),
    weakPasswordHashing: env("PARLEY_TEST_ONLY_WEAK_PASSWORD_HASHING") === "1",
    rendererWarmUp: env("PARLEY_RENDERER_WARM_UP") !== "0",
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
  config.dataDir = resolve(config.dataDir);
  if (config.filesDir) config.filesDir = resolve(config.filesDir);
  if (config.busUrl !== null) {
    if (config.databaseUrl === null) throw new ConfigError("A cluster (PARLEY_BUS_URL) needs its nodes to share a PostgreSQL database: set PARLEY_DATABASE_URL too.");
    if (!/^nats:\/\//.test(config.busUrl)) throw new ConfigError(`PARLEY_BUS_URL must be a NATS URL (nats://HOST:PORT), got '${config.busUrl}'.`);
    if (config.nodeId === null || !/^[A-Za-z0-9_-]{1,40}$/.test(config.nodeId)) throw new ConfigError("A cluster's nodes each need a name: set PARLEY_NODE_ID to 1-40 letters, digits, '-' or '_', different on every node.");
  }
  if (config.databaseUrl !== null && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    throw new ConfigError(`PARLEY_DATABASE_URL must be a PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE), got '${config.databaseUrl.replace(/:[^:@/]*@/, ":***@")}'. Leave it unset for SQLite in the data directory.`);
  }
  if (config.logFormat !== "text" && config.logFormat !== "json") throw new ConfigError(`PARLEY_LOG_FORMAT must be text or json, got '${config.logFormat}'`);
  if (!config.tlsCert !== !config.tlsKey) throw new ConfigError("A TLS certificate needs its key, and a key its certificate: give both --tls-cert and --tls-key (PARLEY_TLS_CERT, PARLEY_TLS_KEY), or neither.");
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) throw new ConfigError(`port must be 0-65535, got '${config.port}'`);
  return config;
}
