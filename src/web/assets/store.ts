import { log } from "../../log";
import { findAppIcons, type AppIconPaths } from "./appIcons";
import { SERVICE_WORKER_PATTERN, buildWebAssets, type AssetBundle, type AssetFile, type Entry } from "./build";

/**
 * The bundled pages the server answers with. The compiled binary is given them at start by the
 * entry `npm run build` generates (provideWebAssets); run from a checkout, they are bundled from
 * web/client/ when first asked for, so a server that serves no page never pays for it.
 */

export interface ServedFile extends AssetFile {
  gzip: Uint8Array<ArrayBuffer>;
}

export interface WebAssets {
  files: Map<string, ServedFile>;
  scripts: Record<Entry, string>;
  stylesheet: string;
  /** The service worker's file (served at /sw.js) and the icons' paths, found by their names. */
  serviceWorker: ServedFile;
  icons: AppIconPaths;
}

let assets: Promise<WebAssets> | null = null;

function prepare(bundle: AssetBundle): WebAssets {
  const files = new Map<string, ServedFile>();
  for (const file of bundle.files) files.set(file.path, { ...file, gzip: Bun.gzipSync(file.body, { level: 9 }) });
  const serviceWorker = [...files.values()].find((file) => SERVICE_WORKER_PATTERN.test(file.path));
  if (!serviceWorker) throw new Error("The web bundle has no service worker");
  return { files, scripts: bundle.scripts, stylesheet: bundle.stylesheet, serviceWorker, icons: findAppIcons([...files.keys()]) };
}

export function provideWebAssets(bundle: AssetBundle) {
  assets = Promise.resolve(prepare(bundle));
}

export function webAssets(): Promise<WebAssets> {
  assets ??= buildWebAssets().then(prepare, (error) => {
    assets = null;
    log.error(`web pages unavailable: ${String(error)}`);
    throw error;
  });
  return assets;
}
