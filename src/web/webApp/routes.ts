import { Elysia, t } from "elysia";
import { findOrganization } from "../../reads/organization";
import { webAssets, type ServedFile } from "../assets/store";
import { webAppManifest } from "./manifest";

/**
 * What makes the chat an installable web app, at the addresses browsers and phones look for:
 * the manifest, the service worker (at the root, so its scope is the whole site), the favicon
 * and iOS's home-screen icon. None needs a session: browsers fetch a manifest without cookies.
 */

const NONE = { query: t.Object({}) };

// The names below stay the same across versions, so each answer is checked again before use.
const REVALIDATE = "no-cache";
const A_DAY = "public, max-age=86400";

function serve(file: ServedFile, request: Request, cacheControl: string, extra: Record<string, string> = {}) {
  const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  const headers: Record<string, string> = { "content-type": file.contentType, "cache-control": cacheControl, "x-content-type-options": "nosniff", vary: "accept-encoding", ...extra };
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(gzip ? file.gzip : file.body, { headers });
}

export const webAppRoutes = new Elysia()
  .get(
    "/manifest.webmanifest",
    async () => {
      const manifest = webAppManifest((await findOrganization())?.name, (await webAssets()).icons);
      return new Response(JSON.stringify(manifest), { headers: { "content-type": "application/manifest+json; charset=utf-8", "cache-control": REVALIDATE, "x-content-type-options": "nosniff" } });
    },
    NONE,
  )
  // Browsers check the worker for a new version on each visit, byte for byte; no-cache keeps that check honest.
  .get("/sw.js", async ({ request }) => serve((await webAssets()).serviceWorker, request, REVALIDATE), NONE)
  .get(
    "/favicon.svg",
    async ({ request }) => {
      const assets = await webAssets();
      return serve(assets.files.get(assets.icons.favicon)!, request, A_DAY);
    },
    NONE,
  )
  // The organization's icon as server_settings and register name it (realm_icon, realm_icon_url),
  // which the Zulip apps show: Parley's, since organizations cannot upload one yet.
  .get(
    "/static/icon.png",
    async ({ request }) => {
      const assets = await webAssets();
      return serve(assets.files.get(assets.icons.any192)!, request, A_DAY);
    },
    NONE,
  )
  // Where iOS looks when a page names no icon, and what the pages name.
  .get(
    "/apple-touch-icon.png",
    async ({ request }) => {
      const assets = await webAssets();
      return serve(assets.files.get(assets.icons.appleTouch)!, request, A_DAY);
    },
    NONE,
  );
