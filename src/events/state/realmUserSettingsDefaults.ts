import type { Reader } from "../../db/types";
import { EMOJISET_CHOICES, NOTIFICATION_SOUNDS } from "../../model/legacyUserSettings";
import { defaultUserSettings } from "../../model/userSettings";
import type { UserStateContext } from "./context";

/**
 * realm_user_settings_defaults: what new users start with; settings added since fall back to
 * the catalogue. The time zone is each person's own; the choices come along as in the reference.
 */
export function realmUserSettingsDefaultsState(_db: Reader, { realm }: UserStateContext) {
  const { timezone: _timezone, ...defaults } = { ...defaultUserSettings(), ...realm.userSettingsDefaults };
  return { realm_user_settings_defaults: { ...defaults, emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: NOTIFICATION_SOUNDS } };
}
