import { Elysia, t } from "elysia";
import { logIn } from "../actions/login";
import { success } from "../http/errors";
import { clientAddress } from "../http/rateLimit";
import { requestLimits } from "../http/requestLimits";

export const authRoutes = new Elysia().use(requestLimits).post(
  "/fetch_api_key",
  async ({ body, request, server }) => {
    const user = await logIn(body.username, body.password, clientAddress(server, request));
    return success({ api_key: user.apiKey, email: user.email, user_id: user.id });
  },
  { limit: "address", body: t.Object({ username: t.String({ maxLength: 254 }), password: t.String({ maxLength: 1024 }) }) },
);
