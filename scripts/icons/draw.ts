import type { IconKind } from "../../src/web/assets/appIcons";
import { encodePng } from "./png";

/**
 * Parley's own icon, for the installed app, the favicon and notifications: a white speech
 * bubble with three dots on the accent blue. It is drawn from the few shapes below, as SVG for
 * the favicon and as PNG at each size the web app manifest and iOS ask for, so the picture
 * lives in one place and the build makes every file of it.
 */

const ACCENT = [0x35, 0x59, 0xd6] as const; // --accent, light
const WHITE = [0xff, 0xff, 0xff] as const;

/** The shapes, in a unit square (0..1 both ways, y down). */
const TILE_RADIUS = 0.22;
const BUBBLE = { x0: 0.22, y0: 0.25, x1: 0.78, y1: 0.65, radius: 0.13 };
const TAIL: Array<[number, number]> = [
  [0.32, 0.6],
  [0.3, 0.8],
  [0.5, 0.64],
];
const DOTS = { y: 0.45, xs: [0.36, 0.5, 0.64], radius: 0.045 };



// The maskable picture is shrunk toward the centre so the bubble stays in the safe zone.
const scaleOf = (kind: IconKind) => (kind === "maskable" ? 0.82 : 1);

function inRoundedRect(x: number, y: number, r: { x0: number; y0: number; x1: number; y1: number; radius: number }) {
  if (x < r.x0 || x > r.x1 || y < r.y0 || y > r.y1) return false;
  const cx = Math.min(Math.max(x, r.x0 + r.radius), r.x1 - r.radius);
  const cy = Math.min(Math.max(y, r.y0 + r.radius), r.y1 - r.radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r.radius ** 2;
}

function inTriangle(x: number, y: number, [a, b, c]: Array<[number, number]>) {
  const side = (p: [number, number], q: [number, number]) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const s1 = side(a, b);
  const s2 = side(b, c);
  const s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

/** The colour at a point of the unit square, or null outside the icon. */
function colourAt(kind: IconKind, x: number, y: number): readonly [number, number, number] | null {
  if (kind === "tile" && !inRoundedRect(x, y, { x0: 0, y0: 0, x1: 1, y1: 1, radius: TILE_RADIUS })) return null;
  const scale = scaleOf(kind);
  const u = (x - 0.5) / scale + 0.5;
  const v = (y - 0.5) / scale + 0.5;
  if (DOTS.xs.some((dx) => (u - dx) ** 2 + (v - DOTS.y) ** 2 <= DOTS.radius ** 2)) return ACCENT;
  if (inRoundedRect(u, v, BUBBLE) || inTriangle(u, v, TAIL)) return WHITE;
  return ACCENT;
}

/** The icon as a PNG of size × size pixels, each pixel the average of 4 × 4 samples (smooth edges). */
export function iconPng(kind: IconKind, size: number): Uint8Array<ArrayBuffer> {
  const SAMPLES = 4;
  const rgba = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const colour = colourAt(kind, (px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      const at = (py * size + px) * 4;
      if (covered === 0) continue;
      rgba[at] = Math.round(r / covered);
      rgba[at + 1] = Math.round(g / covered);
      rgba[at + 2] = Math.round(b / covered);
      rgba[at + 3] = Math.round((covered / SAMPLES ** 2) * 255);
    }
  }
  return encodePng(size, size, rgba);
}

const hex = (colour: readonly number[]) => `#${colour.map((part) => part.toString(16).padStart(2, "0")).join("")}`;
const n = (value: number) => +(value * 100).toFixed(2);

/** The tile as SVG, for the favicon (sharp at every size a browser shows it). */
export function iconSvg(): string {
  const bubble = `<rect x="${n(BUBBLE.x0)}" y="${n(BUBBLE.y0)}" width="${n(BUBBLE.x1 - BUBBLE.x0)}" height="${n(BUBBLE.y1 - BUBBLE.y0)}" rx="${n(BUBBLE.radius)}" fill="#fff"/>`;
  const tail = `<path d="M${TAIL.map(([x, y]) => `${n(x)} ${n(y)}`).join("L")}Z" fill="#fff"/>`;
  const dots = DOTS.xs.map((x) => `<circle cx="${n(x)}" cy="${n(DOTS.y)}" r="${n(DOTS.radius)}" fill="${hex(ACCENT)}"/>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="${n(TILE_RADIUS)}" fill="${hex(ACCENT)}"/>${bubble}${tail}${dots}</svg>`;
}
