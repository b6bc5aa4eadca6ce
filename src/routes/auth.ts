import { Elysia, t } from "elysia";
import { fetchApiKey } from "../actions/login";
import { success } from "../http/errors";

export const authRoutes = new Elysia().post(
  "/fetch_api_key",
  async ({ body, request, server }) => {
    const address = server?.requestIP(request)?.address ?? "unknown";
    return success(await fetchApiKey(body.username, body.password, address));
  },
  { body: t.Object({ username: t.String({ maxLength: 254 }), password: t.String({ maxLength: 1024 }) }) },
);
