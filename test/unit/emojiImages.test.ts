import { describe, expect, test } from "bun:test";
import { inspectEmojiImage, sniffEmojiImageFormat, stillFrame, UndecodableImage } from "../../src/model/emojiImages";
import { animatedGif, animatedWebp, apng, gif, jpeg, png, webp } from "../helpers/images";

/** Custom emoji images: told apart by their bytes, checked, and cut to a still first frame. */

const count = (bytes: Uint8Array, text: string) => {
  const needle = new TextEncoder().encode(text);
  let found = 0;
  for (let i = 0; i + needle.length <= bytes.length; i++) if (needle.every((byte, j) => bytes[i + j] === byte)) found++;
  return found;
};

describe("sniffEmojiImageFormat", () => {
  test("the four formats by their signatures; anything else is null", () => {
    expect([png(), gif(), jpeg(), webp(), apng(), animatedGif(), animatedWebp()].map(sniffEmojiImageFormat)).toEqual(["png", "gif", "jpeg", "webp", "png", "gif", "webp"]);
    for (const other of ["<svg/>", "<html>", "%PDF-1.4", "", "GIF8", "RIFF\0\0\0\0WAVE"]) expect(sniffEmojiImageFormat(new TextEncoder().encode(other))).toBeNull();
  });
});

describe("inspectEmojiImage", () => {
  test("still images are not animated, two-frame ones are", () => {
    expect(inspectEmojiImage(png(), "png").animated).toBe(false);
    expect(inspectEmojiImage(gif(), "gif").animated).toBe(false);
    expect(inspectEmojiImage(webp(), "webp").animated).toBe(false);
    expect(inspectEmojiImage(jpeg(), "jpeg").animated).toBe(false);
    expect(inspectEmojiImage(apng(), "png").animated).toBe(true);
    expect(inspectEmojiImage(animatedGif(), "gif").animated).toBe(true);
    expect(inspectEmojiImage(animatedWebp(), "webp").animated).toBe(true);
  });

  test("a GIF with one frame and a loop extension is still", () => {
    expect(inspectEmojiImage(animatedGif(1), "gif").animated).toBe(false);
  });

  test("files cut short anywhere, or with a lying chunk length, are undecodable, never a crash", () => {
    for (const [bytes, format] of [[png(), "png"], [apng(), "png"], [animatedGif(), "gif"], [gif(), "gif"], [animatedWebp(), "webp"], [webp(), "webp"]] as const) {
      for (let length = 0; length < bytes.length - 1; length++) {
        expect(() => inspectEmojiImage(bytes.slice(0, length), format)).toThrow(UndecodableImage);
      }
    }
    const lying = png();
    lying.set([0x7f, 0xff, 0xff, 0xff], 8);
    expect(() => inspectEmojiImage(lying, "png")).toThrow(UndecodableImage);
  });
});

describe("stillFrame", () => {
  test("an animated GIF keeps its first image only, and ends with the trailer", () => {
    const still = stillFrame(animatedGif(3), "gif");
    expect(inspectEmojiImage(still, "gif").animated).toBe(false);
    expect(still.at(-1)).toBe(0x3b);
    expect(still.length).toBeLessThan(animatedGif(3).length);
  });

  test("an APNG loses its animation chunks and keeps its default image", () => {
    const still = stillFrame(apng(), "png");
    expect(inspectEmojiImage(still, "png").animated).toBe(false);
    expect([count(still, "acTL"), count(still, "fcTL"), count(still, "fdAT"), count(still, "IDAT"), count(still, "IEND")]).toEqual([0, 0, 0, 1, 1]);
  });

  test("an animated WebP becomes its first frame's bitstream under a VP8X header of the frame's size", () => {
    const still = stillFrame(animatedWebp(), "webp");
    expect(sniffEmojiImageFormat(still)).toBe("webp");
    expect(inspectEmojiImage(still, "webp").animated).toBe(false);
    expect([count(still, "ANMF"), count(still, "ANIM"), count(still, "VP8L"), count(still, "VP8X")]).toEqual([0, 0, 1, 1]);
    // The RIFF size covers the rest of the file exactly.
    expect(new DataView(still.buffer).getUint32(4, true)).toBe(still.length - 8);
  });
});
