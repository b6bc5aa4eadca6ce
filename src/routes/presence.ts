import { Elysia, t } from "elysia";
import { forward, registerTarget } from "../cluster/forwarding";
import { updateOwnPresence } from "../actions/presence";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { getRealmPresence, getUserPresence } from "../reads/presence";

export const presenceRoutes = new Elysia()
  .use(authentication)
  .post("/users/me/presence", async ({ user, body, request }) => {
    // In a cluster, a user's presence is kept by the node that holds their queues.
    const home = registerTarget(request, user.id);
    const answer = home ? await forward(request, home, body) : null;
    return answer ?? success(await updateOwnPresence(user, body));
  }, {
    auth: true,
    body: t.Object({
      // "active" or "idle": checked by the action, which answers the reference's "Invalid status".
      status: t.String({ maxLength: 100 }),
      ping_only: t.Optional(t.BooleanString()),
      new_user_input: t.Optional(t.BooleanString()),
      slim_presence: t.Optional(t.BooleanString()),
      last_update_id: t.Optional(t.Numeric({ minimum: -1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1 })),
      history_limit_days: t.Optional(t.Numeric({ minimum: 0, maximum: 100_000, multipleOf: 1 })),
    }),
  })
  .get("/realm/presence", async ({ user }) => success(await getRealmPresence(user)), { auth: true, query: t.Object({}) })
  // One path segment for both forms, named as GET /users/{user_id} names it.
  .get("/users/:user_id/presence", async ({ user, params }) => success({ presence: await getUserPresence(user, params.user_id) }), {
    auth: true,
    params: t.Object({ user_id: t.String({ maxLength: 254 }) }),
    query: t.Object({}),
  });
