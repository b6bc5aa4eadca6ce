import { requireAdministrator } from "../access/users";
import { getRealm, updateRealm } from "../db/realm";
import { write } from "../db/transaction";
import { activeUserIds, type User } from "../db/users";
import { defaultUserSettings, type UserSettingName, type UserSettings } from "../model/userSettings";
import { checkSetting } from "./settings";

/**
 * Settings that belong to the person rather than being preferences: the organization's
 * defaults endpoint does not take them, as the reference's does not (register still shows them).
 */
export const PERSONAL_SETTINGS: ReadonlySet<UserSettingName> = new Set(["default_language", "timezone", "enable_marketing_emails", "enable_login_emails", "allow_private_data_export"]);

/**
 * PATCH /realm/user_settings_defaults: what new accounts start with. Existing users keep their
 * own settings, which were copied from the defaults when they joined (spec 4.5).
 */
export async function updateUserSettingsDefaults(actor: User, requested: Partial<Record<UserSettingName, unknown>>) {
  requireAdministrator(actor, "change the default settings for new users");
  const entries = Object.entries(requested) as Array<[UserSettingName, unknown]>;
  for (const [name, value] of entries) checkSetting(name, value);
  await write(async (tx) => {
    const current: UserSettings = { ...defaultUserSettings(), ...(await getRealm(tx)).userSettingsDefaults };
    const changed = entries.filter(([name, value]) => current[name] !== value);
    if (changed.length === 0) return;
    await updateRealm(tx, { userSettingsDefaults: { ...current, ...Object.fromEntries(changed) } });
    // Every settings page may show the defaults, so every active account is told (bots too, as in the reference).
    const everyone = await activeUserIds(tx);
    for (const [property, value] of changed) {
      tx.emit({ type: "realm_user_settings_defaults", op: "update", property, value: value as boolean | number | string }, everyone);
    }
  });
}
