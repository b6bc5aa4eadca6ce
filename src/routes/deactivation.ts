import { Elysia, t } from "elysia";
import { deactivateBot, deactivateOwnAccount, deactivateUser, reactivateUser } from "../actions/deactivateUser";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

const userId = t.Object({ user_id: t.Numeric() });

export const deactivationRoutes = new Elysia()
  .use(authentication)
  // Declared before /users/:user_id so "me" is not read as an ID.
  .delete(
    "/users/me",
    async ({ user }) => {
      await deactivateOwnAccount(user);
      return success();
    },
    { auth: true, body: t.Object({}) },
  )
  .delete(
    "/users/:user_id",
    async ({ user, params, body }) => {
      await deactivateUser(user, params.user_id, body.deactivation_notification_comment);
      return success();
    },
    { auth: true, params: userId, body: t.Object({ deactivation_notification_comment: t.Optional(t.String({ maxLength: 10_000 })) }) },
  )
  .post(
    "/users/:user_id/reactivate",
    async ({ user, params }) => {
      await reactivateUser(user, params.user_id);
      return success();
    },
    { auth: true, params: userId, body: t.Object({}) },
  )
  .delete(
    "/bots/:bot_id",
    async ({ user, params }) => {
      await deactivateBot(user, params.bot_id);
      return success();
    },
    { auth: true, params: t.Object({ bot_id: t.Numeric() }), body: t.Object({}) },
  );
