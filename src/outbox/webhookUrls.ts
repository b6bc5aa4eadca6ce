import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";

/**
 * Which service URLs an outgoing webhook may reach. A bot's owner chooses the URL, so without
 * a rule anyone who may create a bot could make the server POST to itself or to services on
 * its own machine (a port only reachable from localhost, a cloud metadata address). The rule:
 *
 * - never this server's own address: the organization's URL (host and port), or a loopback
 *   address or one of this machine's own addresses with the port Parley listens on;
 * - no loopback (127.0.0.0/8, ::1, localhost), unspecified (0.0.0.0, ::) or link-local
 *   (169.254.0.0/16, fe80::/10) address unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set (a bot
 *   service on the same machine, and the tests' receivers);
 * - private networks (10/8, 192.168/16 ...) are allowed: integrations often live there.
 *
 * The host name is resolved here and every address it resolves to is checked; the request
 * then resolves it again, so a name that changes its answer in between (DNS rebinding) is not
 * caught. Redirects are not followed (outbox/webhooks.ts), so a service cannot bounce the
 * request somewhere this check refused.
 */

export interface UrlPolicy {
  allowLoopback: boolean;
  /** The port this server listens on, once known. */
  ownPort: number | null;
  /** The organization's URL. */
  realmUrl: string;
}

const defaultPort = (url: URL) => (url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1, which URL parsing writes ::ffff:7f00:1) as IPv4. */
function mappedIPv4(lower: string): string | null {
  if (!lower.startsWith("::ffff:")) return null;
  const rest = lower.slice(7);
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

function isLocalOnly(address: string): boolean {
  const lower = address.toLowerCase();
  const v4 = mappedIPv4(lower) ?? lower;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split(".").map(Number);
    return a === 127 || a === 0 || (a === 169 && b === 254);
  }
  return lower === "::1" || lower === "::" || /^fe[89ab][0-9a-f]:/.test(lower);
}

function ownAddresses(): Set<string> {
  return new Set(Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address.toLowerCase())));
}

/** Why `raw` may not be called, or null when it may. */
export async function refusedWebhookUrl(raw: string, policy: UrlPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `the service URL '${raw}' is not a valid URL`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "the service URL must be http or https";
  const port = defaultPort(url);
  try {
    const realm = new URL(policy.realmUrl);
    if (realm.hostname.toLowerCase() === url.hostname.toLowerCase() && defaultPort(realm) === port) return "the service URL points at this server itself";
  } catch {
    // An organization URL that does not parse cannot match.
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return null; // Unresolvable: the request fails as a connection error and is retried.
  }
  if (policy.ownPort !== null && port === policy.ownPort && addresses.some((address) => isLocalOnly(address) || ownAddresses().has(address))) {
    return "the service URL points at this server itself";
  }
  const local = addresses.filter(isLocalOnly);
  if (local.length === 0) return null;
  if (!policy.allowLoopback) return `the service URL resolves to a local address (${local[0]}), which is refused unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set`;
  return null;
}
