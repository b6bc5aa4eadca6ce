import type { Reader } from "../../db/types";
import { defaultUserSettings } from "../../model/userSettings";
import type { UserStateContext } from "./index";

/** realm_user_settings_defaults: what new users start with; settings added since fall back to the catalogue. */
export function realmUserSettingsDefaultsState(_db: Reader, { realm }: UserStateContext) {
  const { timezone: _timezone, ...defaults } = { ...defaultUserSettings(), ...realm.userSettingsDefaults };
  return { realm_user_settings_defaults: defaults };
}
