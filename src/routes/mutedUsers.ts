import { Elysia, t } from "elysia";
import { muteUser, unmuteUser } from "../actions/mutedUsers";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

const MutedUserParams = t.Object({ muted_user_id: t.Numeric({ multipleOf: 1 }) });

export const mutedUserRoutes = new Elysia()
  .use(authentication)
  .post(
    "/users/me/muted_users/:muted_user_id",
    async ({ user, params }) => {
      await muteUser(user, params.muted_user_id);
      return success();
    },
    { auth: true, params: MutedUserParams, body: t.Object({}) },
  )
  .delete(
    "/users/me/muted_users/:muted_user_id",
    async ({ user, params }) => {
      await unmuteUser(user, params.muted_user_id);
      return success();
    },
    { auth: true, params: MutedUserParams, body: t.Object({}) },
  );
