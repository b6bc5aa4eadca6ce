import { describe, expect, test } from "bun:test";
import { createGunzip, gunzipSync, inflateRawSync } from "node:zlib";
import { acceptsGzip, deflateHead, gzipWithTail } from "../../src/http/gzipSplice";

// gzipWithTail hand-assembles a gzip member (header, shared deflate head, a stored final block,
// CRC32 + ISIZE trailer). Every byte of that must be right for real decoders, so each output is
// read back by three independent ones and compared byte for byte with head + tail.

/** A JSON text like a long event list: repetitive, and over 200 KB. */
const bigJson = JSON.stringify(
  Array.from({ length: 1500 }, (_, i) => ({ type: "message", message: { id: 1000 + i, content: "<p>hello there, everyone</p>", sender_email: "mel@example.com" }, flags: [], id: i })),
);

const HEADS: Record<string, string> = {
  empty: "",
  ascii: '{"result":"success","msg":"","events":[',
  // Multi-byte UTF-8 (2, 3 and 4 bytes), and U+2028, which JSON carries raw but JS source may not.
  nonAscii: '{"content":"café ünïcode 漢字 😀👍🏽 line\u2028separator \u2029 end",',
  big: bigJson,
};

const utf8Length = (text: string) => Buffer.byteLength(text);
const MAX = 65535;

const TAILS: Record<string, string> = {
  empty: "",
  short: '],"queue_id":"q-1"}',
  nonAscii: '],"queue_id":"ünï 😀 \u2028"}',
  // Exactly one stored block's worth, counted in bytes, in ASCII and in 2-byte characters.
  maxAscii: "x".repeat(MAX),
  maxTwoByte: "é".repeat((MAX - 1) / 2) + "a",
};

/** Decompresses by streaming, a few bytes at a time, as a client reading a slow socket does. */
async function gunzipStreaming(bytes: Uint8Array): Promise<Buffer> {
  const gunzip = createGunzip();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    gunzip.on("data", (chunk: Buffer) => chunks.push(chunk));
    gunzip.on("end", () => resolve(Buffer.concat(chunks)));
    gunzip.on("error", reject);
  });
  for (let at = 0; at < bytes.length; at += 7) gunzip.write(bytes.subarray(at, at + 7));
  gunzip.end();
  return done;
}

const decoded = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

describe("gzipWithTail", () => {
  test("the tails used here are the sizes they claim", () => {
    // Guards the boundary cases below: a miscounted tail would test nothing.
    expect(utf8Length(TAILS.maxAscii)).toBe(MAX);
    expect(utf8Length(TAILS.maxTwoByte)).toBe(MAX);
    expect(utf8Length(HEADS.big)).toBeGreaterThan(200_000);
  });

  for (const [headName, head] of Object.entries(HEADS)) {
    for (const [tailName, tail] of Object.entries(TAILS)) {
      test(`head ${headName} + tail ${tailName}: every decoder reads back exactly head + tail`, async () => {
        const out = gzipWithTail(deflateHead(head), tail);
        expect(out).toBeInstanceOf(Uint8Array);
        const bytes = out as Uint8Array<ArrayBuffer>;
        const expected = Buffer.from(head + tail);
        // The gzip magic and the deflate method.
        expect([...bytes.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
        expect(Buffer.from(gunzipSync(bytes)).equals(expected)).toBe(true);
        expect((await gunzipStreaming(bytes)).equals(expected)).toBe(true);
        expect(Buffer.from(Bun.gunzipSync(bytes)).equals(expected)).toBe(true);
        // One deflate stream that ends (BFINAL) right where the 8-byte trailer starts.
        expect(Buffer.from(inflateRawSync(bytes.subarray(10, bytes.length - 8))).equals(expected)).toBe(true);
        // ISIZE counts bytes, not characters.
        expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(bytes.length - 4, true)).toBe(expected.length);
      });
    }
  }

  test("a tail over 65535 bytes does not fit one stored block: undefined", () => {
    const head = deflateHead(HEADS.ascii);
    expect(gzipWithTail(head, "x".repeat(MAX + 1))).toBeUndefined();
    // Under the limit in characters but over it in bytes: the byte count is what matters.
    const twoByte = "é".repeat(40_000);
    expect(twoByte.length).toBeLessThan(MAX);
    expect(gzipWithTail(head, twoByte)).toBeUndefined();
    // Exactly at the limit still works (and is checked fully above).
    expect(gzipWithTail(head, "x".repeat(MAX))).toBeInstanceOf(Uint8Array);
  });

  test("decoders check the trailer: a corrupted CRC or size byte is refused", () => {
    for (const head of [HEADS.empty, HEADS.nonAscii, HEADS.big]) {
      const good = gzipWithTail(deflateHead(head), TAILS.short) as Uint8Array;
      expect(decoded(gunzipSync(good))).toBe(head + TAILS.short);
      // Last 8 bytes: CRC32 (4), then ISIZE (4). Flip one bit of each, in turn.
      for (const fromEnd of [8, 5, 4, 1]) {
        const bad = good.slice();
        bad[bad.length - fromEnd] ^= 0x01;
        expect(() => gunzipSync(bad)).toThrow();
      }
    }
  });

  test("one head serves many tails, each answer independent of the others", () => {
    const head = deflateHead(HEADS.nonAscii);
    const before = Buffer.from(head.bytes);
    const tails = Array.from({ length: 50 }, (_, i) => `],"queue_id":"queue-${i}"${i % 3 === 0 ? ',"ignored_parameters_unsupported":["ü"]' : ""}}`);
    const outs = tails.map((tail) => gzipWithTail(head, tail) as Uint8Array);
    // Read back only after all were made, and in reverse: a later call must not alter an earlier output.
    for (let i = outs.length - 1; i >= 0; i--) expect(decoded(gunzipSync(outs[i]))).toBe(HEADS.nonAscii + tails[i]);
    // The shared head is left as it was (outputs are copies, not views written into it).
    expect(Buffer.from(head.bytes).equals(before)).toBe(true);
    expect(head.length).toBe(utf8Length(HEADS.nonAscii));
  });

  test("the head really is compressed", () => {
    const plain = utf8Length(HEADS.big);
    const out = gzipWithTail(deflateHead(HEADS.big), TAILS.short) as Uint8Array;
    // Repetitive JSON shrinks many-fold even at level 1; stored (uncompressed) it could not.
    expect(out.length).toBeLessThan(plain / 8);
  });
});

describe("acceptsGzip", () => {
  const cases: Array<[string | null, boolean]> = [
    [null, false],
    ["", false],
    ["gzip", true],
    ["GZIP", true],
    ["x-gzip", true],
    ["gzip, deflate, br, zstd", true], // what Bun's and browsers' fetch send
    ["deflate, br", false],
    ["identity", false],
    ["gzip;q=0", false],
    ["gzip; q=0.0", false],
    ["GZIP;Q=0.000", false],
    ["x-gzip;q=0", false],
    ["br;q=1, gzip;q=0.5", true],
    [" gzip ; q=0.001", true],
    ["identity, gzip;q=0", false],
    ["gzipped, notgzip", false], // names are matched whole
    ["deflate;q=1, x-gzip", true],
  ];
  for (const [header, expected] of cases) {
    test(`${JSON.stringify(header)} → ${expected}`, () => {
      expect(acceptsGzip(header)).toBe(expected);
    });
  }
});
