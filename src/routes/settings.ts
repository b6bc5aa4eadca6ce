import { Elysia, t } from "elysia";
import { updateOwnSettings } from "../actions/settings";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { settingParameters } from "../http/params";
import { clientAddress } from "../http/rateLimit";
import { currentSession, sessionTokenOf } from "../http/session";

/** The browser session a request came with, when it is the caller's own: the one a password change keeps. */
async function sessionIdOf(request: Request, userId: number): Promise<number | null> {
  const token = sessionTokenOf(request);
  const session = token === undefined ? undefined : await currentSession(token);
  return session?.user.id === userId ? session.id : null;
}

const password = () => t.Optional(t.String({ maxLength: 1024 }));

export const settingsRoutes = new Elysia().use(authentication).patch(
  "/settings",
  async ({ user, body, request, server }) => {
    const { full_name, old_password, new_password, ...settings } = body as Record<string, unknown> & { full_name?: string; old_password?: string; new_password?: string };
    const passwordChange =
      new_password === undefined ? undefined : { old: old_password, new: new_password, address: clientAddress(server, request), keepSessionId: await sessionIdOf(request, user.id) };
    await updateOwnSettings(user, { fullName: full_name, settings, password: passwordChange });
    return success();
  },
  { auth: true, body: t.Object({ full_name: t.Optional(t.String({ maxLength: 1000 })), old_password: password(), new_password: password(), ...settingParameters }) },
);
