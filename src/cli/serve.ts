import { parseArgs } from "node:util";
import { isSetUp } from "../reads/organization";
import { createApp, startBackground } from "../app";
import { loadConfig } from "../config";
import { closeDatabase } from "../db/client";
import { openStore } from "../db/open";
import { type ClusterNode, joinCluster } from "../cluster/node";
import { wakeOutbox } from "../outbox/runner";
import { DuplicateNodeError } from "../cluster/membership";
import { ensureWebPushKeys } from "../actions/webPushKeys";
import { log } from "../log";
import { maxHeaderSize } from "node:http";
import { BUN_BODY_BACKSTOP_BYTES, requestHeadLimitWarning } from "../http/requestSize";
import { ProxyListError, parseTrustedProxies, trustForwardedHeaders } from "../http/clientAddress";
import { loadTls } from "./tls";
import { SERVER_VERSION } from "../version";
import { issueSetupCode } from "../web/setup/code";
import { announceNewInstall, announceSetupCode } from "./announce";
import { SERVE_USAGE } from "./usage";
import { applySmtpOptions, SMTP_OPTIONS } from "./smtpOptions";
import { CommandError, UsageError } from "./errors";

// Long-polls wait up to the heartbeat interval and clients up to 90 s; Bun's default idle
// timeout of 10 s would cut them off. Bun allows at most 255 s.
const IDLE_TIMEOUT_SECONDS = 120;
const idleTimeoutFor = (heartbeatSeconds: number) => Math.min(255, Math.max(IDLE_TIMEOUT_SECONDS, Math.ceil(heartbeatSeconds) + 30));

/** An IPv6 address needs brackets inside a URL. */
const urlHost = (host: string) => (host.includes(":") ? `[${host}]` : host);

export async function runServe(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      "data-dir": { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      init: { type: "boolean" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "trusted-proxies": { type: "string" },
      "database-url": { type: "string" },
      "bus-url": { type: "string" },
      "node-id": { type: "string" },
      "node-url": { type: "string" },
      "files-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
      ...SMTP_OPTIONS,
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got '${values.port}'.`);
  }
  applySmtpOptions(values);
  const trustedProxies = values["trusted-proxies"]?.split(",").map((address) => address.trim()).filter(Boolean);
  const config = loadConfig({
    dataDir: values["data-dir"],
    host: values.host,
    port,
    tlsCert: values["tls-cert"],
    tlsKey: values["tls-key"],
    trustedProxies,
    databaseUrl: values["database-url"],
    busUrl: values["bus-url"],
    nodeId: values["node-id"],
    nodeUrl: values["node-url"],
    filesDir: values["files-dir"],
  });
  log.setLevel(config.logLevel);
  log.setFormat(config.logFormat);
  try {
    parseTrustedProxies(config.trustedProxies);
  } catch (error) {
    if (!(error instanceof ProxyListError)) throw error;
    throw new CommandError(`Trusted proxies (${trustedProxies ? "--trusted-proxies" : "PARLEY_TRUSTED_PROXIES"}): ${error.message}.`);
  }
  // Read and checked before the database is opened, so a wrong path changes nothing.
  const tls = config.tlsCert && config.tlsKey ? loadTls(config.tlsCert, config.tlsKey) : undefined;
  const scheme = tls ? "https" : "http";
  const { created, upgrade } = await openStore(config, { newInstall: values.init ? "allow" : "refuse" });
  if (created) announceNewInstall(config.dataDir, created);
  if (upgrade) {
    log.info(
      `Upgraded the database for ${SERVER_VERSION} (${upgrade.migrations.join(", ")}). The database as it was is kept in ${upgrade.backup}: ` +
        `to go back to the previous version, stop Parley, run 'parley restore ${upgrade.backup} --data-dir NEW_DIR --files-from ${config.dataDir}' and start the previous version on NEW_DIR.`,
    );
  }

  const app = createApp();
  try {
    // Elysia asks for SO_REUSEPORT by default, which would let a second Parley share the port
    // (and split the traffic) instead of failing to start.
    app.listen({ hostname: config.host, port: config.port, idleTimeout: idleTimeoutFor(config.heartbeatSeconds), maxRequestBodySize: BUN_BODY_BACKSTOP_BYTES, reusePort: false, development: false, tls });
  } catch (error) {
    await closeDatabase();
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw new CommandError(`Port ${config.port} on ${config.host} is already in use; stop what is using it or choose another with --port.`);
    if (code === "EACCES") throw new CommandError(`Not allowed to listen on ${config.host}:${config.port}; choose a port above 1023 with --port.`);
    if (code === "EADDRNOTAVAIL") throw new CommandError(`Cannot listen on ${config.host}: no such address on this machine; check --host.`);
    if (tls && code?.startsWith("ERR_OSSL")) throw new CommandError(`Cannot serve HTTPS with '${config.tlsCert}' and '${config.tlsKey}': ${(error as Error).message}`);
    throw error;
  }
  // Loaded once listening succeeded (a failed start must not consume the saved queues), and in
  // the same tick, so no request is served before the restored queues are back.
  // With --port 0 the port is chosen now; what runs in the background is told the real one.
  const background = startBackground({ ...config, port: app.server?.port ?? config.port });
  // Listening for signals before announcing the address: whoever reads the start line may stop
  // us at once, and a SIGTERM that finds no handler kills the process without a clean stop.
  const stopRequested = new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info(`Received ${signal}; shutting down`);
      resolve();
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  const server = app.server!;
  trustForwardedHeaders({ server, proxies: config.trustedProxies });
  let cluster: ClusterNode | null = null;
  if (config.busUrl) {
    try {
      cluster = await joinCluster({ busUrl: config.busUrl, nodeId: config.nodeId!, nodeUrl: config.nodeUrl ?? `${scheme}://127.0.0.1:${server.port}`, committedElsewhere: wakeOutbox });
    } catch (error) {
      await app.stop(true);
      await background.stop();
      await closeDatabase();
      if (error instanceof DuplicateNodeError) throw new CommandError(error.message);
      throw error;
    }
    log.info(`Node '${config.nodeId}' joined the cluster on ${config.busUrl} (${cluster.membership.liveNodes().length} node(s) live)`);
  }
  const shown = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : urlHost(config.host);
  // Before the start is announced, so the first GET /server_settings has the key browsers need.
  await ensureWebPushKeys().catch((error: unknown) => log.warn(`The Web Push keys could not be made; browsers cannot subscribe until a restart: ${(error as Error).message}`));
  await background.announced;
  const headLimitWarning = requestHeadLimitWarning(maxHeaderSize);
  if (headLimitWarning) log.warn(headLimitWarning);
  if (config.weakPasswordHashing) log.warn("PARLEY_TEST_ONLY_WEAK_PASSWORD_HASHING is on: new passwords are hashed at argon2id's lowest cost, which protects nothing. It is for test suites; never use it on a server people use.");
  log.info(`Parley ${SERVER_VERSION} listening on ${scheme}://${urlHost(config.host)}:${server.port} (data in ${config.dataDir})`);
  if (await isSetUp()) log.info(`Open ${scheme}://${shown}:${server.port}/ to sign in`);
  else announceSetupCode(`${scheme}://${shown}:${server.port}/`, issueSetupCode());
  log.flush();

  await stopRequested;
  await app.stop(true);
  await cluster?.stop();
  await background.stop();
  await closeDatabase();
  log.info("Stopped cleanly");
  log.flush();
  return 0;
}
