import { resolve } from "node:path";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Config {
  dataDir: string;
  host: string;
  port: number;
  logLevel: LogLevel;
  /** Event queue heartbeat interval (spec 6: one minute). */
  heartbeatSeconds: number;
  /** A queue idle this long is garbage-collected (spec 8: ten minutes). */
  queueTimeoutSeconds: number;
  /** Unread events one queue may hold before it is dropped, bounding a dead client's memory. */
  queueMaxEvents: number;
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

/** Settings from the environment, overridden by command-line options. */
export function loadConfig(overrides: Partial<Config> = {}): Config {
  const level = (env("PARLEY_LOG_LEVEL") ?? "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(level)) throw new ConfigError(`PARLEY_LOG_LEVEL must be debug, info, warn or error`);
  const config: Config = {
    dataDir: env("PARLEY_DATA_DIR") || "./data",
    host: env("PARLEY_HOST") || "0.0.0.0",
    port: intFromEnv("PARLEY_PORT", 8080),
    logLevel: level,
    heartbeatSeconds: intFromEnv("PARLEY_HEARTBEAT_SECONDS", 60),
    queueTimeoutSeconds: intFromEnv("PARLEY_QUEUE_TIMEOUT_SECONDS", 600),
    queueMaxEvents: intFromEnv("PARLEY_QUEUE_MAX_EVENTS", 10_000),
    maxQueuesPerUser: intFromEnv("PARLEY_MAX_QUEUES_PER_USER", 50),
    maxQueuesTotal: intFromEnv("PARLEY_MAX_QUEUES_TOTAL", 20_000),
    loginFailureLimit: intFromEnv("PARLEY_LOGIN_FAILURE_LIMIT", 10),
    loginAddressFailureLimit: intFromEnv("PARLEY_LOGIN_ADDRESS_FAILURE_LIMIT", 50),
    loginAccountFailureLimit: intFromEnv("PARLEY_LOGIN_ACCOUNT_FAILURE_LIMIT", 100),
    loginFailureWindowSeconds: intFromEnv("PARLEY_LOGIN_FAILURE_WINDOW_SECONDS", 900),
    deleteTopicBudgetMs: intFromEnv("PARLEY_DELETE_TOPIC_BUDGET_MS", 5000),
    deleteTopicBatchSize: intFromEnv("PARLEY_DELETE_TOPIC_BATCH_SIZE", 1000),
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
  config.dataDir = resolve(config.dataDir);
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) throw new ConfigError(`port must be 0-65535, got '${config.port}'`);
  return config;
}
