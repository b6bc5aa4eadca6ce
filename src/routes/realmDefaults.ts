import { Elysia, t, type TSchema } from "elysia";
import { PERSONAL_SETTINGS, updateUserSettingsDefaults } from "../actions/userSettingsDefaults";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { settingParameters } from "../http/params";
import type { UserSettingName } from "../model/userSettings";

const defaultParameters = Object.fromEntries(Object.entries(settingParameters).filter(([name]) => !PERSONAL_SETTINGS.has(name as UserSettingName))) as Record<string, TSchema>;

export const realmDefaultsRoutes = new Elysia().use(authentication).patch(
  "/realm/user_settings_defaults",
  async ({ user, body }) => {
    await updateUserSettingsDefaults(user, body as Partial<Record<UserSettingName, unknown>>);
    return success();
  },
  { auth: true, body: t.Object(defaultParameters) },
);
