import { isIP } from "node:net";

/**
 * Which addresses and names lead back to this machine or its own link, whatever their
 * spelling. URL parsing already turns the IPv4 spellings into dotted quads (`2130706433`,
 * `0177.0.0.1`, `0x7f.1` and `127.1` all become 127.0.0.1), but it leaves IPv6 forms that carry
 * an IPv4 address (`[::ffff:127.0.0.1]` is written `[::ffff:7f00:1]`) and host names
 * (`localhost.`, `x.localhost`) as they are; a resolver may answer any form. So addresses are
 * compared as bytes, and the IPv4 address inside an IPv6 one is judged as IPv4.
 *
 * Local only: loopback (127.0.0.0/8, ::1), unspecified ("this network" 0.0.0.0/8, ::), and
 * link-local (169.254.0.0/16, where cloud metadata services answer, and fe80::/10).
 */

/** `localhost` and every name under it, with or without the trailing dot (RFC 6761 6.3). */
export function isLocalName(host: string): boolean {
  const name = withoutTrailingDot(host.toLowerCase());
  return name === "localhost" || name.endsWith(".localhost");
}

/** The loopback address a local name stands for: it is never asked of a resolver. */
export const LOCAL_NAME_ADDRESS = "127.0.0.1";

export const withoutTrailingDot = (host: string) => host.replace(/\.$/, "");

export function isLocalOnlyAddress(address: string): boolean {
  const v4 = ipv4Bytes(address) ?? embeddedIPv4(address);
  if (v4) {
    const [a, b] = v4;
    return a === 127 || a === 0 || (a === 169 && b === 254);
  }
  const v6 = ipv6Bytes(address);
  if (!v6) return false;
  const loopback = v6.slice(0, 15).every((byte) => byte === 0) && v6[15] === 1;
  const unspecified = v6.every((byte) => byte === 0);
  const linkLocal = v6[0] === 0xfe && (v6[1] & 0xc0) === 0x80;
  return loopback || unspecified || linkLocal;
}

function ipv4Bytes(address: string): number[] | null {
  return isIP(address) === 4 ? address.split(".").map(Number) : null;
}

/**
 * The IPv4 address carried by an IPv6 one: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * (::a.b.c.d, but not :: or ::1), IPv4-translated (::ffff:0:a.b.c.d) and the NAT64 prefix
 * (64:ff9b::a.b.c.d), all of which a stack or a gateway may turn back into the IPv4 address.
 */
function embeddedIPv4(address: string): number[] | null {
  const bytes = ipv6Bytes(address);
  if (!bytes) return null;
  const word = (i: number) => (bytes[2 * i] << 8) | bytes[2 * i + 1];
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const tail = bytes.slice(12);
  const mapped = zeros(0, 10) && word(5) === 0xffff;
  const compatible = zeros(0, 12) && !(zeros(12, 15) && bytes[15] <= 1);
  const translated = zeros(0, 8) && word(4) === 0xffff && word(5) === 0;
  const nat64 = word(0) === 0x64 && word(1) === 0xff9b && zeros(4, 12);
  return mapped || compatible || translated || nat64 ? tail : null;
}

/** An IPv6 address (brackets and a zone allowed) as its 16 bytes, or null when it is not one. */
function ipv6Bytes(address: string): number[] | null {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  if (isIP(bare) !== 6) return null;
  let text = bare;
  // A dotted IPv4 tail stands for the last two 16-bit groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[2].split(".").map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(head);
  const right = tail === null ? [] : groups(tail);
  const all = tail === null ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 255];
  });
}
