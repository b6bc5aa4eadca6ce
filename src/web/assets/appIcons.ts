import any192 from "./icons/parley-192.png" with { type: "file" };
import any512 from "./icons/parley-512.png" with { type: "file" };
import maskable512 from "./icons/parley-maskable-512.png" with { type: "file" };
import appleTouch from "./icons/parley-apple-180.png" with { type: "file" };
import favicon from "./icons/parley.svg" with { type: "file" };

/**
 * The icon files the bundle carries (drawn by scripts/draw-icons.ts, kept in icons/ and
 * embedded in the binary): what the web app manifest lists, what iOS puts on the home screen,
 * the favicon. Their names carry a content hash like every bundled file; the server finds them
 * again by the name before it.
 */

/** How an icon fills its square. */
export type IconKind =
  /** A rounded tile with transparent corners: the "any" icon, the favicon. */
  | "tile"
  /** Fills the whole square and keeps the picture inside the middle 80 %, which launchers may crop to any shape. */
  | "maskable"
  /** Fills the whole square (iOS rounds the corners of a home-screen icon itself). */
  | "square";

export interface AppIcon {
  /** The name before the hash, under icons/. */
  name: string;
  kind: IconKind;
  /** Pixels square; none for the SVG. */
  size?: number;
}

export const APP_ICONS = {
  any192: { name: "parley-192", kind: "tile", size: 192 },
  any512: { name: "parley-512", kind: "tile", size: 512 },
  maskable512: { name: "parley-maskable-512", kind: "maskable", size: 512 },
  /** iOS's home-screen size; it rounds the corners itself, so the square fills it. */
  appleTouch: { name: "parley-apple-180", kind: "square", size: 180 },
  favicon: { name: "parley", kind: "tile" },
} as const satisfies Record<string, AppIcon>;

export type AppIconName = keyof typeof APP_ICONS;
/** Per icon, its path under /static/web/. */
export type AppIconPaths = Record<AppIconName, string>;

const contentHash = (body: Uint8Array) => new Bun.CryptoHasher("sha256").update(body).digest("hex").slice(0, 8);

const FILES: Record<AppIconName, string> = { any192, any512, maskable512, appleTouch, favicon };

/** The icon files, in the shape of web/assets/build.ts's AssetFile. */
export async function appIconFiles(): Promise<Array<{ path: string; contentType: string; body: Uint8Array<ArrayBuffer> }>> {
  return await Promise.all(
    (Object.entries(APP_ICONS) as Array<[AppIconName, AppIcon]>).map(async ([key, icon]) => {
      const svg = icon.size === undefined;
      const body = new Uint8Array(await Bun.file(FILES[key]).arrayBuffer());
      return { path: `icons/${icon.name}-${contentHash(body)}.${svg ? "svg" : "png"}`, contentType: svg ? "image/svg+xml" : "image/png", body };
    }),
  );
}

/** The icons' paths among a bundle's files (also one handed in built, which names no icons otherwise). */
export function findAppIcons(paths: string[]): AppIconPaths {
  const found: Partial<AppIconPaths> = {};
  for (const [key, icon] of Object.entries(APP_ICONS) as Array<[AppIconName, AppIcon]>) {
    const pattern = new RegExp(`^icons/${icon.name}-[0-9a-f]{8}\\.(png|svg)$`);
    const path = paths.find((candidate) => pattern.test(candidate));
    if (!path) throw new Error(`The web bundle has no icon '${icon.name}'`);
    found[key] = path;
  }
  return found as AppIconPaths;
}
