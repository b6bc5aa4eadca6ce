import { Elysia, t } from "elysia";
import { createUser, updateUser } from "../actions/users";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { userToApi } from "../shapes/users";

export const userRoutes = new Elysia()
  .use(authentication)
  .get("/users/me", ({ user }) => success({ ...userToApi(user, user), user_id: user.id }), { auth: true, query: t.Object({}) })
  .post(
    "/users",
    async ({ user, body }) => {
      const created = await createUser(user, { email: body.email, password: body.password, fullName: body.full_name });
      return success({ user_id: created.id });
    },
    {
      auth: true,
      body: t.Object({
        email: t.String({ maxLength: 254 }),
        password: t.String({ maxLength: 1024 }),
        full_name: t.String({ maxLength: 100 }),
      }),
    },
  )
  .patch(
    "/users/:user_id",
    ({ user, params, body }) => {
      updateUser(user, params.user_id, { fullName: body.full_name, role: body.role });
      return success();
    },
    {
      auth: true,
      params: t.Object({ user_id: t.Numeric() }),
      body: t.Object({ full_name: t.Optional(t.String({ maxLength: 1000 })), role: t.Optional(t.Numeric()) }),
    },
  );
