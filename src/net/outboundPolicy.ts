import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { LOCAL_NAME_ADDRESS, isLocalName, isLocalOnlyAddress, withoutTrailingDot } from "./localAddresses";

/**
 * Where the server may send a request on a user's behalf (an outgoing webhook's service URL
 * now, Web Push endpoints later). The user chooses the URL, so without a rule anyone who may
 * create a bot could make the server call itself or services on its own machine (a port only
 * reachable from localhost, a cloud metadata address). The rule:
 *
 * - http and https only;
 * - never this server itself: the organization's URL (host and port), or a loopback address or
 *   one of this machine's own addresses with the port Parley listens on;
 * - no loopback, unspecified or link-local address (localAddresses.ts, in any spelling, and
 *   `localhost` and names under it) unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set (a bot service
 *   on the same machine, and the tests' receivers);
 * - private networks (10/8, 192.168/16 ...) are allowed: integrations often live there;
 * - a name that does not resolve is refused.
 *
 * The name is resolved once, every address it resolves to is checked, and the request then
 * connects to a checked address (outboundFetch.ts), so a name that changes its answer between
 * the check and the connection (DNS rebinding) cannot lead anywhere unchecked. Redirects are
 * not followed, so a service cannot bounce the request somewhere this rule refuses.
 */

export interface OutboundSettings {
  allowLoopback: boolean;
  /** The port this server listens on, once known. */
  ownPort: number | null;
}

let settings: OutboundSettings = { allowLoopback: false, ownPort: null };

/** Set at start from PARLEY_WEBHOOK_ALLOW_LOOPBACK and the port the server listens on. */
export function configureOutboundPolicy(values: OutboundSettings) {
  settings = values;
}

/** The rule refused the URL: nothing was sent, and trying again will not help. */
export class RequestRefused extends Error {}

/** A name's addresses, as the system's resolver (hosts file, DNS) gives them. */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true })).map((entry) => entry.address);

/** A URL the rule allows, with the address the request must connect to. */
export interface CheckedDestination {
  url: URL;
  address: string;
}

/**
 * Checks `raw` and resolves its host once. Throws RequestRefused (with the reason) when the
 * rule refuses it or the name does not exist; a lookup that failed for another reason (no DNS
 * server answering) throws a plain Error, worth trying again later.
 */
export async function checkDestination(raw: string, options: { ownUrl: string; resolve?: Resolver }): Promise<CheckedDestination> {
  const url = parseHttpUrl(raw);
  if (sameHostAndPort(url, options.ownUrl)) throw new RequestRefused(THIS_SERVER);
  const addresses = knownAddresses(url) ?? (await resolveOnce(url.hostname, options.resolve ?? systemResolver));
  const refused = refusalOf(url, addresses);
  if (refused) throw new RequestRefused(refused);
  // IPv4 first: a host with an IPv6 address but no IPv6 route is common; the reverse is not.
  const address = addresses.find((candidate) => isIP(candidate) === 4) ?? addresses[0];
  return { url, address };
}

/**
 * What can be refused without resolving anything: the URL's form and scheme, this server,
 * and local addresses written as addresses or as local names. For an immediate, clear answer
 * when a bot is created; checkDestination, at each request, is the check that holds.
 */
export function refusalAtFirstSight(raw: string, ownUrl: string): string | null {
  let url: URL;
  try {
    url = parseHttpUrl(raw);
  } catch (error) {
    return (error as Error).message;
  }
  if (sameHostAndPort(url, ownUrl)) return THIS_SERVER;
  const addresses = knownAddresses(url);
  return addresses ? refusalOf(url, addresses) : null;
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RequestRefused(`'${raw}' is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new RequestRefused("the URL must be http or https");
  return url;
}

/** A URL's port, the scheme's default when it names none. */
export const portOf = (url: URL) => (url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

/** The host without brackets when it is an address. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** The addresses a URL's host stands for without a resolver: an address, or a local name. */
function knownAddresses(url: URL): string[] | null {
  const host = bareHost(url);
  if (isIP(host)) return [host];
  return isLocalName(host) ? [LOCAL_NAME_ADDRESS] : null;
}

async function resolveOnce(host: string, resolve: Resolver): Promise<string[]> {
  let addresses: string[];
  try {
    // The hosts file lists names without the final dot; for DNS the two spellings are one name.
    addresses = await resolve(withoutTrailingDot(host));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") throw new RequestRefused(`the host name '${host}' does not resolve`);
    throw new Error(`could not look up the host name '${host}' (${code ?? (error as Error).message}); it is tried again later`);
  }
  if (addresses.length === 0) throw new RequestRefused(`the host name '${host}' does not resolve`);
  return addresses;
}

const THIS_SERVER = "the URL points at this server itself";

function sameHostAndPort(url: URL, ownUrl: string): boolean {
  try {
    const own = new URL(ownUrl);
    return withoutTrailingDot(own.hostname) === withoutTrailingDot(url.hostname) && portOf(own) === portOf(url);
  } catch {
    return false; // An organization URL that does not parse cannot match.
  }
}

function ownAddresses(): Set<string> {
  return new Set(Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address.toLowerCase())));
}

/** Why a URL whose host stands for `addresses` may not be called, or null when it may. */
function refusalOf(url: URL, addresses: string[]): string | null {
  const { allowLoopback, ownPort } = settings;
  if (ownPort !== null && portOf(url) === ownPort) {
    const own = ownAddresses();
    if (addresses.some((address) => isLocalOnlyAddress(address) || own.has(address.toLowerCase()))) return THIS_SERVER;
  }
  const local = addresses.find(isLocalOnlyAddress);
  if (local === undefined || allowLoopback) return null;
  const host = bareHost(url);
  const named = host === local ? "" : `'${host}' `;
  return `the URL's host ${named}resolves to a local address (${local}), which is refused unless PARLEY_WEBHOOK_ALLOW_LOOPBACK is set`;
}
