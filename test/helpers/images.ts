import { deflateSync } from "node:zlib";
import { concatBytes } from "../../src/model/emojiImages";

export { concatBytes };

/**
 * Small, valid image files built byte by byte for upload tests: one pixel each, still or with
 * two frames, in the formats custom emoji accept.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const be32 = (value: number) => Uint8Array.of((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
const le32 = (value: number) => Uint8Array.of(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff);
const le24 = (value: number) => Uint8Array.of(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff);
const text = (value: string) => new TextEncoder().encode(value);

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concatBytes(text(type), data);
  return concatBytes(be32(data.length), typed, be32(crc32(typed)));
}

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
// 1x1, 8-bit RGBA.
const IHDR = concatBytes(be32(1), be32(1), Uint8Array.of(8, 6, 0, 0, 0));
const pixelRow = (r: number, g: number, b: number) => deflateSync(Uint8Array.of(0, r, g, b, 255));

export function png(): Uint8Array<ArrayBuffer> {
  return concatBytes(PNG_SIGNATURE, pngChunk("IHDR", IHDR), pngChunk("IDAT", pixelRow(255, 0, 0)), pngChunk("IEND", new Uint8Array()));
}

/** An APNG of two frames: the default image is the first; the second comes in fdAT. */
export function apng(): Uint8Array<ArrayBuffer> {
  const frameControl = (sequence: number) => concatBytes(be32(sequence), be32(1), be32(1), be32(0), be32(0), Uint8Array.of(0, 10, 0, 100, 0, 0));
  return concatBytes(
    PNG_SIGNATURE,
    pngChunk("IHDR", IHDR),
    pngChunk("acTL", concatBytes(be32(2), be32(0))),
    pngChunk("fcTL", frameControl(0)),
    pngChunk("IDAT", pixelRow(255, 0, 0)),
    pngChunk("fcTL", frameControl(1)),
    pngChunk("fdAT", concatBytes(be32(2), pixelRow(0, 0, 255))),
    pngChunk("IEND", new Uint8Array()),
  );
}

// A 1x1 GIF with a two-colour palette; the image data is the classic one-pixel LZW stream.
const GIF_HEAD = concatBytes(text("GIF89a"), Uint8Array.of(1, 0, 1, 0, 0x80, 0, 0), Uint8Array.of(255, 0, 0, 0, 0, 255));
const GIF_FRAME = concatBytes(
  Uint8Array.of(0x21, 0xf9, 4, 0, 10, 0, 0, 0),
  Uint8Array.of(0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0),
  Uint8Array.of(2, 2, 0x44, 0x01, 0),
);
const NETSCAPE_LOOP = concatBytes(Uint8Array.of(0x21, 0xff, 11), text("NETSCAPE2.0"), Uint8Array.of(3, 1, 0, 0, 0));

export function gif(): Uint8Array<ArrayBuffer> {
  return concatBytes(GIF_HEAD, GIF_FRAME, Uint8Array.of(0x3b));
}

export function animatedGif(frames = 2): Uint8Array<ArrayBuffer> {
  return concatBytes(GIF_HEAD, NETSCAPE_LOOP, ...Array.from({ length: frames }, () => GIF_FRAME), Uint8Array.of(0x3b));
}

/** A 1x1 lossless WebP's VP8L bitstream. */
const VP8L_PIXEL = Uint8Array.of(0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00);

function riffChunk(type: string, data: Uint8Array): Uint8Array {
  return concatBytes(text(type), le32(data.length), data, data.length % 2 ? Uint8Array.of(0) : new Uint8Array());
}

const riff = (...chunks: Uint8Array[]) => {
  const body = concatBytes(text("WEBP"), ...chunks);
  return concatBytes(text("RIFF"), le32(body.length), body);
};

export function webp(): Uint8Array<ArrayBuffer> {
  return riff(riffChunk("VP8L", VP8L_PIXEL));
}

export function animatedWebp(): Uint8Array<ArrayBuffer> {
  const vp8x = concatBytes(Uint8Array.of(0x12, 0, 0, 0), le24(0), le24(0));
  const frame = concatBytes(le24(0), le24(0), le24(0), le24(0), le24(100), Uint8Array.of(0), riffChunk("VP8L", VP8L_PIXEL));
  return riff(riffChunk("VP8X", vp8x), riffChunk("ANIM", concatBytes(le32(0), Uint8Array.of(0, 0))), riffChunk("ANMF", frame), riffChunk("ANMF", frame));
}

/** A JPEG's opening markers; nothing reads further than the signature. */
export function jpeg(): Uint8Array<ArrayBuffer> {
  return concatBytes(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 16), text("JFIF"), Uint8Array.of(0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9));
}
