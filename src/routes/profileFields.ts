import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

/**
 * GET /realm/profile_fields: custom profile fields cannot be configured in Parley yet, so the
 * list is empty (clients such as zulip-terminal's user info ask for it).
 */
export const profileFieldRoutes = new Elysia().use(authentication).get("/realm/profile_fields", () => success({ custom_fields: [] }), { auth: true, query: t.Object({}) });
