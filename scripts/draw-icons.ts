// Draws Parley's icon files into src/web/assets/icons/ (bun scripts/draw-icons.ts), from the
// shapes in scripts/icons/draw.ts. Run it after changing the drawing, and commit the files: the
// server ships them as they are (drawing them at start blocked the first page for ~0.4 s).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { APP_ICONS, type AppIcon } from "../src/web/assets/appIcons";
import { iconPng, iconSvg } from "./icons/draw";

const DIR = join(import.meta.dir, "..", "src", "web", "assets", "icons");
for (const icon of Object.values(APP_ICONS) as AppIcon[]) {
  const body = icon.size === undefined ? new TextEncoder().encode(iconSvg()) : iconPng(icon.kind, icon.size);
  const file = join(DIR, `${icon.name}.${icon.size === undefined ? "svg" : "png"}`);
  writeFileSync(file, body);
  console.log(`${file}: ${body.length} bytes`);
}
