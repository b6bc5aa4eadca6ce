import { Elysia } from "elysia";
import { checkHealth } from "../reads/health";

/**
 * GET /health, outside /api/v1 and without authentication, for load balancers, container
 * health checks and `parley health`: 200 {"status":"ok"} while the database answers and its
 * data directory is there, writable and not full, else 503 with the reason; a `warning` beside
 * "ok" when free space runs low.
 */
export const healthRoutes = new Elysia().get("/health", async () => {
  const health = await checkHealth();
  const body = health.ok ? { status: "ok", ...(health.warning ? { warning: health.warning } : {}) } : { status: "error", reason: health.reason };
  return new Response(JSON.stringify(body), {
    status: health.ok ? 200 : 503,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
});
