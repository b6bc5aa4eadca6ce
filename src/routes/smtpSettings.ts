import { Elysia, t } from "elysia";
import { removeSmtpSettings, saveSmtpSettings, sendSmtpTest } from "../actions/smtpSettings";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { getSmtpSettings } from "../reads/smtpSettings";

/**
 * A Parley addition (docs/API.md): the SMTP relay, set by owners and administrators in the
 * browser when the environment sets none. The password is written, never read back.
 */

const settingsFields = {
  host: t.String({ maxLength: 300 }),
  port: t.Numeric(),
  security: t.String({ maxLength: 20 }),
  user: t.Optional(t.String({ maxLength: 254 })),
  password: t.Optional(t.String({ maxLength: 1024 })),
  from: t.String({ maxLength: 400 }),
};

export const smtpSettingsRoutes = new Elysia()
  .use(authentication)
  .get("/server/smtp", async ({ user }) => success(await getSmtpSettings(user)), { auth: true, query: t.Object({}) })
  .put(
    "/server/smtp",
    async ({ user, body }) => {
      await saveSmtpSettings(user, body);
      return success();
    },
    { auth: true, body: t.Object(settingsFields) },
  )
  .delete(
    "/server/smtp",
    async ({ user }) => {
      await removeSmtpSettings(user);
      return success();
    },
    { auth: true, body: t.Object({}) },
  )
  .post("/server/smtp/test", async ({ user, body }) => success(await sendSmtpTest(user, body)), {
    auth: true,
    body: t.Object({
      to: t.Optional(t.String({ maxLength: 254 })),
      host: t.Optional(settingsFields.host),
      port: t.Optional(settingsFields.port),
      security: t.Optional(settingsFields.security),
      user: settingsFields.user,
      password: settingsFields.password,
      from: t.Optional(settingsFields.from),
    }),
  });
