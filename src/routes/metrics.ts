import { Elysia } from "elysia";
import { loadConfig } from "../config";
import { ApiError } from "../http/errors";
import { METRICS_CONTENT_TYPE, metricsAllowed } from "../http/metrics";
import { getMetricsText } from "../reads/metrics";

/**
 * GET /metrics, outside /api/v1 and without a user, for Prometheus and the like: readable from
 * this machine, and from elsewhere with `Authorization: Bearer <PARLEY_METRICS_TOKEN>`. Anyone
 * else gets the answer of a path that does not exist, so the endpoint does not show.
 */
export const metricsRoutes = new Elysia().get("/metrics", async ({ request, server }) => {
  const headers = request.headers;
  const allowed = metricsAllowed(
    {
      peer: server?.requestIP(request)?.address ?? null,
      forwarded: headers.has("x-forwarded-for") || headers.has("forwarded") || headers.has("x-real-ip"),
      authorization: headers.get("authorization"),
    },
    loadConfig().metricsToken,
  );
  if (!allowed) throw new ApiError("NOT_FOUND", "Endpoint not found");
  return new Response(await getMetricsText(), { headers: { "content-type": METRICS_CONTENT_TYPE, "cache-control": "no-store" } });
});
