import { deflateSync } from "node:zlib";

/**
 * The image of the built-in `:zulip:` emoji, which clients load from EXTRA_EMOJI_IMAGE_URL:
 * a white "Z" on a blue disc, 64×64, drawn here and encoded as a PNG once, so the program needs
 * no image file and no image library.
 */

const SIZE = 64;
const DISC = [100, 146, 254];

function pixels(): Uint8Array {
  // Each row: a filter byte (0), then RGBA per pixel.
  const rows = new Uint8Array(SIZE * (SIZE * 4 + 1));
  const centre = (SIZE - 1) / 2;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const at = y * (SIZE * 4 + 1) + 1 + x * 4;
      const distance = Math.hypot(x - centre, y - centre);
      // A soft edge of one pixel, so the disc is not jagged.
      const alpha = Math.max(0, Math.min(1, SIZE / 2 - distance));
      if (alpha === 0) continue;
      const inZ =
        (y >= 16 && y < 24 && x >= 17 && x < 47) || (y >= 40 && y < 48 && x >= 17 && x < 47) || (y >= 24 && y < 40 && Math.abs(x - (46 - ((y - 24) * 29) / 16) + 3) < 5);
      const [r, g, b] = inZ ? [255, 255, 255] : DISC;
      rows.set([r, g, b, Math.round(alpha * 255)], at);
    }
  }
  return rows;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let png: Uint8Array<ArrayBuffer> | null = null;

export function extraEmojiPng(): Uint8Array<ArrayBuffer> {
  if (png) return png;
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, SIZE);
  view.setUint32(4, SIZE);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, no interlace
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(pixels())), chunk("IEND", new Uint8Array())];
  png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}
