import { join } from "node:path";
import { appIconFiles, findAppIcons } from "./appIcons";
import { assertWithinBudget, gzipSize, measureFirstLoad, staticClosure, type FirstLoad } from "./budget";

/**
 * The browser code (web/client/) bundled by Bun's bundler: one script per page area, chunks
 * they share, and the one stylesheet. Runs when the server first needs them from a checkout,
 * and ahead of time in `npm run build`, which embeds the result in the binary.
 */

export const CLIENT_DIR = join(import.meta.dir, "..", "client");

/** The page areas: each is a folder of web/client/ with a main.tsx. */
export const ENTRIES = ["setup", "admin", "settings", "chat"] as const;
export type Entry = (typeof ENTRIES)[number];

export const STYLESHEET = "ui/styles.css";

/** The service worker's source, and the name its bundled file starts with (it is served at /sw.js). */
export const SERVICE_WORKER = "serviceWorker/main.ts";
export const SERVICE_WORKER_PATTERN = /^serviceWorker\/main-[0-9a-z]+\.js$/;

export interface AssetFile {
  /** Path under /static/web/, with a content hash in the name. */
  path: string;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
}

export interface AssetBundle {
  files: AssetFile[];
  /** Per entry, the path of its script; and the stylesheet's path. */
  scripts: Record<Entry, string>;
  stylesheet: string;
  /** The chat's first load (web/assets/budget.ts), measured when bundled; absent when handed in built. */
  chatFirstLoad?: FirstLoad;
}

export async function buildWebAssets(): Promise<AssetBundle> {
  const result = await Bun.build({
    entrypoints: [...ENTRIES.map((entry) => join(CLIENT_DIR, entry, "main.tsx")), join(CLIENT_DIR, STYLESHEET)],
    root: CLIENT_DIR,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    naming: { entry: "[dir]/[name]-[hash].[ext]", chunk: "chunks/[name]-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": '"production"' },
    // Which chunks each script imports statically, for the first-load budget.
    metafile: true,
    throw: false,
  });
  if (!result.success) throw new Error(`Bundling the web pages failed:\n${result.logs.map(String).join("\n")}`);
  const files: AssetFile[] = [];
  const scripts: Partial<Record<Entry, string>> = {};
  let stylesheet = "";
  for (const output of result.outputs) {
    const path = output.path.replace(/^\.\//, "");
    files.push({ path, contentType: output.type || "application/octet-stream", body: new Uint8Array(await output.arrayBuffer()) });
    // A stylesheet given as an entry point comes out as an "asset".
    if (path.startsWith("ui/styles-") && path.endsWith(".css")) stylesheet = path;
    if (output.kind !== "entry-point") continue;
    const entry = ENTRIES.find((name) => path.startsWith(`${name}/main-`) && path.endsWith(".js"));
    if (entry) scripts[entry] = path;
  }
  for (const entry of ENTRIES) if (!scripts[entry]) throw new Error(`Bundling the web pages made no script for '${entry}'`);
  if (!stylesheet) throw new Error(`Bundling the web pages made no stylesheet: ${result.outputs.map((o) => `${o.kind} ${o.path}`).join(", ")}`);
  if (!result.metafile) throw new Error("Bundling the web pages gave no metafile");
  files.push(...(await appIconFiles()));
  files.push(await buildServiceWorker(findAppIcons(files.map((file) => file.path)).any192));
  const chatFirstLoad = measureChatFirstLoad(result.metafile, files, scripts.chat!, stylesheet);
  assertWithinBudget(chatFirstLoad);
  return { files, scripts: scripts as Record<Entry, string>, stylesheet, chatFirstLoad };
}

function measureChatFirstLoad(metafile: Bun.BuildMetafile, files: AssetFile[], script: string, stylesheet: string): FirstLoad {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const loaded = [...staticClosure(metafile, script), stylesheet];
  return measureFirstLoad(loaded.map((path) => ({ path, gzipBytes: gzipSize(byPath.get(path)!.body) })));
}

/**
 * The service worker, bundled on its own: it is served from /sw.js (its scope is the whole
 * site), where the pages' shared chunks, named relative to /static/web/, could not be imported,
 * and a classic script registers in every browser that has service workers. Everything it
 * imports is inlined. It learns the icon's hashed path here, for pushes that bring no icon.
 */
async function buildServiceWorker(iconPath: string): Promise<AssetFile> {
  const result = await Bun.build({
    entrypoints: [join(CLIENT_DIR, SERVICE_WORKER)],
    root: CLIENT_DIR,
    target: "browser",
    format: "iife",
    minify: true,
    naming: { entry: "[dir]/[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": '"production"', PARLEY_ICON: JSON.stringify(`/static/web/${iconPath}`) },
    throw: false,
  });
  if (!result.success) throw new Error(`Bundling the service worker failed:\n${result.logs.map(String).join("\n")}`);
  const [output] = result.outputs;
  const path = output.path.replace(/^\.\//, "");
  if (result.outputs.length !== 1 || !SERVICE_WORKER_PATTERN.test(path)) throw new Error(`Bundling the service worker made ${result.outputs.map((o) => o.path).join(", ")}`);
  return { path, contentType: "text/javascript;charset=utf-8", body: new Uint8Array(await output.arrayBuffer()) };
}
