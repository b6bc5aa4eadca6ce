import { Elysia, t, type TSchema } from "elysia";
import { updateOwnSettings } from "../actions/settings";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { USER_SETTINGS, type UserSettingName } from "../model/userSettings";

/** One optional parameter per setting of the catalogue, typed by its kind. */
export const settingParameters = Object.fromEntries(
  Object.entries(USER_SETTINGS).map(([name, spec]) => {
    const schema: TSchema = spec.kind === "bool" ? t.BooleanString() : spec.kind === "int" ? t.Numeric() : t.String({ maxLength: 100 });
    return [name, t.Optional(schema)];
  }),
) as Record<UserSettingName, TSchema>;

export const settingsRoutes = new Elysia().use(authentication).patch(
  "/settings",
  ({ user, body }) => {
    const { full_name, ...settings } = body as Record<string, unknown> & { full_name?: string };
    updateOwnSettings(user, { fullName: full_name, settings });
    return success();
  },
  { auth: true, body: t.Object({ full_name: t.Optional(t.String({ maxLength: 1000 })), ...settingParameters }) },
);
