import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * One gzip stream out of a compressed head shared by many responses and a short tail of each
 * response's own. zlib compresses the head once, ending at a byte boundary without closing the
 * stream (a sync flush); each response then closes it with its tail as a final uncompressed
 * ("stored") deflate block, followed by the gzip trailer. The result is one ordinary gzip
 * member that any decoder reads (RFC 1951 3.2.4 for the stored block, RFC 1952 for the rest).
 */

export interface DeflatedHead {
  bytes: Uint8Array;
  crc: number;
  length: number;
}

// Magic, deflate, no flags, no time, no extra flags, unknown OS.
const GZIP_HEADER = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
// A stored block says its length in 16 bits.
const MAX_TAIL_BYTES = 0xffff;

export function deflateHead(text: string): DeflatedHead {
  const plain = Buffer.from(text);
  // Level 1: the fastest; on the repetitive JSON of event lists it still shrinks them ~10-fold.
  const bytes = deflateRawSync(plain, { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
  return { bytes, crc: crc32(plain), length: plain.length };
}

/** The gzip stream of head + tail; undefined if the tail is too long for one stored block. */
export function gzipWithTail(head: DeflatedHead, tail: string): Uint8Array<ArrayBuffer> | undefined {
  const tailBytes = Buffer.from(tail);
  const n = tailBytes.length;
  if (n > MAX_TAIL_BYTES) return undefined;
  const out = new Uint8Array(GZIP_HEADER.length + head.bytes.length + 5 + n + 8);
  out.set(GZIP_HEADER, 0);
  let at = GZIP_HEADER.length;
  out.set(head.bytes, at);
  at += head.bytes.length;
  // The final block: BFINAL=1, BTYPE=00 (stored), then LEN and its complement, little-endian.
  out.set([1, n & 0xff, n >>> 8, ~n & 0xff, (~n >>> 8) & 0xff], at);
  at += 5;
  out.set(tailBytes, at);
  at += n;
  const view = new DataView(out.buffer);
  view.setUint32(at, crc32(tailBytes, head.crc), true);
  view.setUint32(at + 4, (head.length + n) >>> 0, true);
  return out;
}

/** Whether an Accept-Encoding header allows gzip (a q-value of 0 refuses it). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [name, ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (name !== "gzip" && name !== "x-gzip") return false;
    const q = params.find((param) => param.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
