import { BlockList, isIP } from "node:net";

/**
 * Who is really calling, and over which scheme, when Parley may sit behind a reverse proxy.
 *
 * The TCP peer is the only address nobody can make up. A proxy in front of Parley is that peer
 * for everyone, so it tells the client's address in `X-Forwarded-For` and the scheme the browser
 * used in `X-Forwarded-Proto`; but any client can send those headers too. So they are believed
 * only from the peers listed in PARLEY_TRUSTED_PROXIES, and ignored from everyone else: a client
 * that could choose its address would dodge the sign-in limits with a fresh one per guess.
 */

/** What can tell a request's peer: Bun's server (Elysia hands routes `server`). */
export type AddressSource = { requestIP(request: Request): { address: string } | null } | null;

/** An address or range that cannot be a trusted proxy, named in the message. */
export class ProxyListError extends Error {}

let trusted: BlockList | null = null;
let served: AddressSource = null;

/**
 * Parses a list of proxies: addresses (`127.0.0.1`, `::1`) or ranges (`10.0.0.0/8`, `fd00::/8`).
 * Throws ProxyListError naming an entry that is neither.
 */
export function parseTrustedProxies(entries: string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split("/");
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const type = family === 4 ? "ipv4" : "ipv6";
    if (family === 0 || extra !== undefined || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
      throw new ProxyListError(`'${entry}' is not an IP address or a range such as 10.0.0.0/8 (host names are not accepted)`);
    }
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/**
 * Sets what the rest of this module answers by: the proxies whose forwarded headers are
 * believed, and the server that knows each request's peer. `parley serve` calls it as it starts;
 * until then (an app handling requests in-process) no forwarded header is believed.
 */
export function trustForwardedHeaders(options: { server: AddressSource; proxies: string[] }) {
  trusted = parseTrustedProxies(options.proxies);
  served = options.server;
}

function isTrusted(address: string): boolean {
  if (!trusted) return false;
  const family = isIP(address);
  if (family === 0) return false;
  try {
    return trusted.check(address, family === 4 ? "ipv4" : "ipv6");
  } catch {
    return false;
  }
}

/** One X-Forwarded-For entry as a bare address (some proxies add a port, IPv6 in brackets), or null. */
function hopAddress(entry: string): string | null {
  let hop = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) hop = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(hop)) hop = hop.slice(0, hop.lastIndexOf(":"));
  return isIP(hop) ? hop : null;
}

/**
 * The client behind a trusted peer: the rightmost X-Forwarded-For address that is not itself a
 * trusted proxy. Entries further left were written by whoever came before that hop, the client
 * included, so they prove nothing. An entry that is not an address ends the walk at the last
 * hop that could be believed.
 */
function forwardedClient(header: string | null, peer: string): string {
  if (!header) return peer;
  const hops = header.split(",");
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i]);
    if (hop === null) break;
    client = hop;
    if (!isTrusted(hop)) break;
  }
  return client;
}

/** The peer address of a request, or "unknown" when nothing can tell it. */
const peerOf = (server: AddressSource, request: Request) => server?.requestIP(request)?.address ?? "unknown";

/**
 * The client's address, the key its sign-in failures are counted under and what its sessions
 * record: the peer, or for a trusted proxy the address it forwards.
 */
export function clientAddress(server: AddressSource, request: Request): string {
  const peer = peerOf(server, request);
  return trusted && isTrusted(peer) ? forwardedClient(request.headers.get("x-forwarded-for"), peer) : peer;
}

/**
 * Whether the browser reached us over HTTPS: our own TLS, or a trusted proxy's word in
 * X-Forwarded-Proto (its first value, the scheme the first proxy saw).
 */
export function servedOverHttps(request: Request): boolean {
  if (request.url.startsWith("https:")) return true;
  if (!trusted) return false;
  const proto = request.headers.get("x-forwarded-proto");
  if (proto === null || proto.split(",")[0].trim().toLowerCase() !== "https") return false;
  return isTrusted(peerOf(served, request));
}

/** This server's origin as the browser sees it, for comparing with the Origin a browser sends. */
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  return url.protocol === "http:" && servedOverHttps(request) ? `https://${url.host}` : url.origin;
}
