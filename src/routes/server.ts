import { Elysia, t } from "elysia";
import { success } from "../http/errors";
import { requestLimits } from "../http/requestLimits";
import { getServerSettings } from "../reads/organization";

export const serverRoutes = new Elysia().use(requestLimits).get("/server_settings", async () => success(await getServerSettings()), { limit: "address", query: t.Object({}) });
