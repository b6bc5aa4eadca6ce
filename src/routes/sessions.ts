import { Elysia, t } from "elysia";
import { revokeSession } from "../actions/sessions";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { currentSession, sessionTokenOf } from "../http/session";
import { listSessions } from "../reads/sessions";

/** A Parley addition (docs/API.md): the browser sessions a person is signed in with. */
export const sessionRoutes = new Elysia()
  .use(authentication)
  .get(
    "/users/me/sessions",
    async ({ user, request }) => {
      const token = sessionTokenOf(request);
      const current = token === undefined ? undefined : await currentSession(token);
      return success({ sessions: await listSessions(user, current?.user.id === user.id ? current.id : null) });
    },
    { auth: true, query: t.Object({}) },
  )
  .delete(
    "/users/me/sessions/:session_id",
    async ({ user, params }) => {
      await revokeSession(user, params.session_id);
      return success();
    },
    { auth: true, params: t.Object({ session_id: t.Numeric({ multipleOf: 1 }) }), body: t.Object({}) },
  );
