/**
 * The image formats custom emoji may be uploaded in (the reference's: PNG, GIF, JPEG, WebP),
 * told apart by their bytes rather than by what the client declared, so the Content-Type they
 * are served with always says what they hold. For the animated ones (GIF with several frames,
 * APNG, animated WebP) a still image is cut out of the file itself, without decoding pixels:
 * its first frame, in the same format.
 */

export type EmojiImageFormat = "png" | "gif" | "jpeg" | "webp";

export const EMOJI_IMAGE_CONTENT_TYPES: Record<EmojiImageFormat, string> = {
  png: "image/png",
  gif: "image/gif",
  jpeg: "image/jpeg",
  webp: "image/webp",
};

export interface EmojiImage {
  format: EmojiImageFormat;
  animated: boolean;
}

/** A file whose first bytes name a format but whose structure does not hold up. */
export class UndecodableImage extends Error {}

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));
const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_START = [0xff, 0xd8, 0xff];

/** The format the bytes are in, or null for anything else (SVG, HTML, a PDF ...). */
export function sniffEmojiImageFormat(bytes: Uint8Array): EmojiImageFormat | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return "png";
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a")) return "gif";
  if (startsWith(bytes, JPEG_START)) return "jpeg";
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "webp";
  return null;
}

/** Checks the file's structure and says whether it moves; throws UndecodableImage when broken. */
export function inspectEmojiImage(bytes: Uint8Array, format: EmojiImageFormat): EmojiImage {
  switch (format) {
    case "png":
      return { format, animated: pngChunks(bytes).some((chunk) => chunk.type === "acTL" && readUint32BE(bytes, chunk.dataStart) > 1) };
    case "gif":
      return { format, animated: gifLayout(bytes).imageCount > 1 };
    case "webp": {
      const chunks = riffChunks(bytes);
      const header = chunks.find((chunk) => chunk.type === "VP8X");
      return { format, animated: header !== undefined && (bytes[header.dataStart]! & 0x02) !== 0 && chunks.some((chunk) => chunk.type === "ANMF") };
    }
    case "jpeg":
      return { format, animated: false };
  }
}

/** The first frame of an animated image, in the same format. */
export function stillFrame(bytes: Uint8Array, format: EmojiImageFormat): Uint8Array<ArrayBuffer> {
  switch (format) {
    case "png":
      return pngStill(bytes);
    case "gif":
      return gifStill(bytes);
    case "webp":
      return webpStill(bytes);
    case "jpeg":
      return bytes.slice();
  }
}

function need(condition: boolean): asserts condition {
  if (!condition) throw new UndecodableImage("Could not decode image; did you upload an image file?");
}

const readUint32BE = (bytes: Uint8Array, at: number) => {
  need(at + 4 <= bytes.length);
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
};
const readUint32LE = (bytes: Uint8Array, at: number) => {
  need(at + 4 <= bytes.length);
  return bytes[at]! + (bytes[at + 1]! << 8) + (bytes[at + 2]! << 16) + ((bytes[at + 3]! << 24) >>> 0);
};
const readUint24LE = (bytes: Uint8Array, at: number) => {
  need(at + 3 <= bytes.length);
  return bytes[at]! + (bytes[at + 1]! << 8) + (bytes[at + 2]! << 16);
};

export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

// --- PNG: chunks of length, type, data, CRC; APNG adds acTL, fcTL and fdAT around the IDAT image.

interface Chunk {
  type: string;
  start: number;
  dataStart: number;
  end: number;
}

function pngChunks(bytes: Uint8Array): Chunk[] {
  const chunks: Chunk[] = [];
  let at = PNG_SIGNATURE.length;
  for (;;) {
    const length = readUint32BE(bytes, at);
    const end = at + 12 + length;
    need(end <= bytes.length);
    const chunk = { type: ascii(bytes, at + 4, 4), start: at, dataStart: at + 8, end };
    chunks.push(chunk);
    at = end;
    if (chunk.type === "IEND") break;
  }
  need(chunks[0]?.type === "IHDR" && chunks.some((chunk) => chunk.type === "IDAT"));
  return chunks;
}

/** The default image without the animation chunks is a plain PNG (the CRCs are per chunk). */
function pngStill(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const kept = pngChunks(bytes).filter((chunk) => !["acTL", "fcTL", "fdAT"].includes(chunk.type));
  return concatBytes(...[bytes.subarray(0, PNG_SIGNATURE.length), ...kept.map((chunk) => bytes.subarray(chunk.start, chunk.end))]);
}

// --- GIF: header, screen descriptor, optional global colour table, then blocks to the trailer.

function skipSubBlocks(bytes: Uint8Array, at: number): number {
  for (;;) {
    need(at < bytes.length);
    const size = bytes[at]!;
    at += 1 + size;
    if (size === 0) return at;
  }
}

function gifLayout(bytes: Uint8Array): { imageCount: number; firstImageEnd: number } {
  need(bytes.length >= 13);
  const packed = bytes[10]!;
  let at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  let imageCount = 0;
  let firstImageEnd = 0;
  for (;;) {
    need(at < bytes.length);
    const introducer = bytes[at]!;
    if (introducer === 0x3b) break;
    if (introducer === 0x21) {
      at = skipSubBlocks(bytes, at + 2);
    } else if (introducer === 0x2c) {
      need(at + 10 < bytes.length);
      const imagePacked = bytes[at + 9]!;
      at += 10 + (imagePacked & 0x80 ? 3 * 2 ** ((imagePacked & 0x07) + 1) : 0);
      at = skipSubBlocks(bytes, at + 1); // after the LZW minimum code size
      imageCount++;
      if (imageCount === 1) firstImageEnd = at;
    } else {
      need(false);
    }
  }
  need(imageCount > 0);
  return { imageCount, firstImageEnd };
}

/** Everything up to the end of the first image, then the trailer. */
function gifStill(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return concatBytes(...[bytes.subarray(0, gifLayout(bytes).firstImageEnd), Uint8Array.of(0x3b)]);
}

// --- WebP: a RIFF file of chunks; an animated one has VP8X (flags, canvas), ANIM and ANMF frames.

function riffChunks(bytes: Uint8Array, from = 12, to = bytes.length): Chunk[] {
  if (from === 12) need(readUint32LE(bytes, 4) + 8 <= bytes.length);
  const chunks: Chunk[] = [];
  let at = from;
  while (at + 8 <= to) {
    const size = readUint32LE(bytes, at + 4);
    const end = at + 8 + size + (size % 2);
    need(at + 8 + size <= to);
    chunks.push({ type: ascii(bytes, at, 4), start: at, dataStart: at + 8, end: Math.min(end, to) });
    at = end;
  }
  need(chunks.length > 0);
  return chunks;
}

const uint24LE = (value: number) => Uint8Array.of(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff);
const uint32LE = (value: number) => Uint8Array.of(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff);

/** The first ANMF frame's image chunks under a VP8X header of the frame's size. */
function webpStill(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const frame = riffChunks(bytes).find((chunk) => chunk.type === "ANMF");
  need(frame !== undefined && frame.dataStart + 16 <= frame.end);
  const width = readUint24LE(bytes, frame.dataStart + 6);
  const height = readUint24LE(bytes, frame.dataStart + 9);
  const parts = riffChunks(bytes, frame.dataStart + 16, frame.end).filter((chunk) => ["ALPH", "VP8 ", "VP8L"].includes(chunk.type));
  need(parts.some((chunk) => chunk.type !== "ALPH"));
  const hasAlpha = parts.some((chunk) => chunk.type === "ALPH" || chunk.type === "VP8L");
  const header = concatBytes(...[new TextEncoder().encode("VP8X"), uint32LE(10), Uint8Array.of(hasAlpha ? 0x10 : 0, 0, 0, 0), uint24LE(width), uint24LE(height)]);
  const body = concatBytes(...[new TextEncoder().encode("WEBP"), header, ...parts.map((chunk) => bytes.subarray(chunk.start, chunk.end))]);
  return concatBytes(...[new TextEncoder().encode("RIFF"), uint32LE(body.length), body]);
}
