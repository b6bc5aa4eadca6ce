import { Elysia, t } from "elysia";
import { createUser, updateUser } from "../actions/users";
import { getMember, getOwnProfile, listMembers } from "../reads/users";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

const MemberQuery = t.Object({
  client_gravatar: t.Optional(t.BooleanString()),
  include_custom_profile_fields: t.Optional(t.BooleanString()),
});

// The original defaults client_gravatar to true since feature level 92.
const memberQuery = (query: typeof MemberQuery.static) => ({
  clientGravatar: query.client_gravatar ?? true,
  includeCustomProfileFields: query.include_custom_profile_fields ?? false,
});

export const userRoutes = new Elysia()
  .use(authentication)
  .get("/users", async ({ user, query }) => success({ members: await listMembers(user, memberQuery(query)) }), { auth: true, query: MemberQuery })
  .get("/users/me", async ({ user }) => success(await getOwnProfile(user)), { auth: true, query: t.Object({}) })
  .get("/users/:user_id", async ({ user, params, query }) => success({ user: await getMember(user, params.user_id, memberQuery(query)) }), {
    auth: true,
    // One path segment serves both GET /users/{user_id} and GET /users/{email}.
    params: t.Object({ user_id: t.String({ maxLength: 254 }) }),
    query: MemberQuery,
  })
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
        full_name: t.String({ maxLength: 1000 }),
      }),
    },
  )
  .patch(
    "/users/:user_id",
    async ({ user, params, body }) => {
      await updateUser(user, params.user_id, { fullName: body.full_name, role: body.role });
      return success();
    },
    {
      auth: true,
      params: t.Object({ user_id: t.Numeric() }),
      body: t.Object({ full_name: t.Optional(t.String({ maxLength: 1000 })), role: t.Optional(t.Numeric()) }),
    },
  );
