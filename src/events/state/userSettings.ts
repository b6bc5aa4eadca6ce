import type { Reader } from "../../db/types";
import type { User } from "../../db/users";
import { EMOJISET_CHOICES, LEGACY_DISPLAY_SETTINGS, LEGACY_NOTIFICATION_SETTINGS, NOTIFICATION_SOUNDS } from "../../model/legacyUserSettings";
import { defaultUserSettings, type UserSettings } from "../../model/userSettings";
import type { UserStateContext } from "./context";

/** The viewer's settings; the time zone lives on the user row, where realm_user events read it. */
function settingsOf(viewer: User): UserSettings {
  return { ...defaultUserSettings(), ...viewer.settings, timezone: viewer.timezone };
}

const pick = (settings: UserSettings, names: readonly (keyof UserSettings)[]) => Object.fromEntries(names.map((name) => [name, settings[name]]));

export function userSettingsState(_db: Reader, { viewer }: UserStateContext) {
  return {
    user_settings: { ...settingsOf(viewer), emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: NOTIFICATION_SOUNDS },
  };
}

/** The pre-user_settings top-level fields, only for clients without user_settings_object. */
export function legacyDisplaySettingsState(_db: Reader, { viewer, spec }: UserStateContext) {
  if (spec.capabilities.user_settings_object) return {};
  return { ...pick(settingsOf(viewer), LEGACY_DISPLAY_SETTINGS), emojiset_choices: EMOJISET_CHOICES };
}

export function legacyNotificationSettingsState(_db: Reader, { viewer, spec }: UserStateContext) {
  if (spec.capabilities.user_settings_object) return {};
  return { ...pick(settingsOf(viewer), LEGACY_NOTIFICATION_SETTINGS), available_notification_sounds: NOTIFICATION_SOUNDS };
}
