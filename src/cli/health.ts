import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { CommandError, UsageError } from "./errors";
import { HEALTH_USAGE } from "./usage";

/** Below Docker's HEALTHCHECK --timeout of 5 s, so that a hung server is reported by us, with a reason. */
const TIMEOUT_MS = 4_000;

/** The address a server started with the same environment listens on, as seen from this machine. */
function defaultUrl(): string {
  const config = loadConfig();
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `${config.tlsCert ? "https" : "http"}://${host}:${config.port}/health`;
}

function healthUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`--url must be a URL such as http://127.0.0.1:8080, got '${given}'.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--url must be an http or https URL, got '${given}'.`);
  if (!url.pathname.endsWith("/health")) url.pathname = `${url.pathname.replace(/\/+$/, "")}/health`;
  return url.href;
}

/**
 * `parley health [--url URL]`: asks a running server's GET /health and exits 0 when it is
 * healthy, 1 otherwise with the reason. The container's HEALTHCHECK runs it (the slim image
 * has no curl). Without --url it asks the server this environment configures (PARLEY_HOST,
 * PARLEY_PORT, https when PARLEY_TLS_CERT is set) over loopback; the certificate is then not
 * checked, since it names the public host, not 127.0.0.1.
 */
export async function runHealth(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { url: { type: "string" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(HEALTH_USAGE);
    return 0;
  }
  const url = values.url === undefined ? defaultUrl() : healthUrl(values.url);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "manual", ...(values.url === undefined ? { tls: { rejectUnauthorized: false } } : {}) });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") throw new CommandError(`No answer from ${url} within ${TIMEOUT_MS / 1000} s: the server is overloaded or hung.`);
    const code = (error as { code?: string }).code;
    if (code === "ConnectionRefused" || code === "ECONNREFUSED") throw new CommandError(`Nothing answers at ${url} (connection refused): is Parley running, and on this address and port? Give its address with --url.`);
    throw new CommandError(`Could not reach ${url}: ${(error as Error)?.message ?? String(error)}`);
  }
  const text = await response.text().catch(() => "");
  let body: { status?: unknown; reason?: unknown; warning?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not Parley, or not its health check: said below.
  }
  if (response.status === 200 && body.status === "ok") {
    console.log(`ok: ${url}`);
    if (typeof body.warning === "string") console.log(`warning: ${body.warning}`);
    return 0;
  }
  if (response.status === 503 && typeof body.reason === "string") throw new CommandError(`Parley at ${url} is unhealthy: ${body.reason}`);
  throw new CommandError(`${url} answered HTTP ${response.status}, not Parley's health check: is this Parley's address?`);
}
