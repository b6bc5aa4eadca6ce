import { Elysia, t } from "elysia";
import { resetPasswordByAdministrator } from "../actions/passwordResets";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

/**
 * A Parley addition (docs/API.md): an administrator resets someone's password. With
 * send_email (the default) the person is mailed a one-time link; without, the answer carries
 * the link (reset_url) for the administrator to hand over.
 */
export const passwordResetRoutes = new Elysia().use(authentication).post(
  "/users/:user_id/password_reset",
  async ({ user, params, body }) => success(await resetPasswordByAdministrator(user, params.user_id, body.send_email ?? true)),
  {
    auth: true,
    params: t.Object({ user_id: t.Numeric({ multipleOf: 1 }) }),
    body: t.Object({ send_email: t.Optional(t.BooleanString()) }),
  },
);
