import { Elysia, t } from "elysia";
import { success } from "../http/errors";
import { getServerSettings } from "../reads/organization";

export const serverRoutes = new Elysia().get("/server_settings", () => success(getServerSettings()), { query: t.Object({}) });
