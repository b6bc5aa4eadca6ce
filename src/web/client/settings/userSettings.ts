import { signal } from "@preact/signals";
import { api, snapshot } from "../ui/api";
import { applyColorScheme } from "../ui/theme";

/**
 * The person's own settings (the reference's user_settings), loaded once per page from POST
 * /register, as Zulip's own web app gets them, and kept current as sections save changes.
 */

export type UserSettings = Record<string, unknown> & {
  color_scheme: number;
  emojiset_choices: Array<{ key: string; text: string }>;
  available_notification_sounds: string[];
};

export const userSettings = signal<UserSettings | null>(null);

let loading: Promise<UserSettings> | null = null;

export function loadUserSettings(): Promise<UserSettings> {
  loading ??= snapshot<{ user_settings: UserSettings }>({
    fetch_event_types: ["user_settings"],
    client_capabilities: { user_settings_object: true },
  }).then(
    ({ user_settings }) => {
      userSettings.value = user_settings;
      applyColorScheme(user_settings.color_scheme);
      return user_settings;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Saves one setting; the page follows at once where it can (the colour scheme). */
export async function saveSetting(name: string, value: unknown) {
  await api("PATCH", "/settings", { [name]: value });
  if (userSettings.value) userSettings.value = { ...userSettings.value, [name]: value };
  if (name === "color_scheme") applyColorScheme(value as number);
}

