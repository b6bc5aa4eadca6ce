import { Elysia, t } from "elysia";
import { ApiError } from "../../http/errors";
import { webAssets } from "./store";

const FOREVER = "public, max-age=31536000, immutable";

/** The bundled scripts and stylesheet; every name carries a content hash, so caches may keep them for good. */
export const assetRoutes = new Elysia().get(
  "/static/web/*",
  async ({ params, request }) => {
    const file = (await webAssets()).files.get(params["*"]);
    if (!file) throw new ApiError("NOT_FOUND", "File not found");
    const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
    const headers: Record<string, string> = { "content-type": file.contentType, "cache-control": FOREVER, "x-content-type-options": "nosniff", vary: "accept-encoding" };
    if (gzip) headers["content-encoding"] = "gzip";
    return new Response(gzip ? file.gzip : file.body, { headers });
  },
  { params: t.Object({ "*": t.String({ maxLength: 200 }) }), query: t.Object({}) },
);
