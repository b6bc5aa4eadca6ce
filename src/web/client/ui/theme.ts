import { snapshot } from "./api";

/**
 * The person's colour scheme (the reference's color_scheme: 1 automatic, the device's; 2 dark;
 * 3 light), which styles.css reads from data-theme. Remembered in this browser so a page opens
 * in it at once, then checked against the server's setting.
 */

const STORAGE_KEY = "parley-color-scheme";

export function applyColorScheme(scheme: number) {
  const root = document.documentElement;
  if (scheme === 2) root.dataset.theme = "dark";
  else if (scheme === 3) root.dataset.theme = "light";
  else delete root.dataset.theme;
  try {
    localStorage.setItem(STORAGE_KEY, String(scheme));
  } catch {
    // Storage may be off (private windows); the server's setting still applies each load.
  }
}

/** The scheme this browser last saw, applied before the server answers so the page does not flash. */
export function applyRememberedColorScheme() {
  try {
    const remembered = Number(localStorage.getItem(STORAGE_KEY));
    if (remembered) applyColorScheme(remembered);
  } catch {
    // As above.
  }
}

/** Applies the remembered scheme now and the server's once it answers. */
export function followColorScheme() {
  applyRememberedColorScheme();
  snapshot<{ user_settings: { color_scheme: number } }>({ fetch_event_types: ["user_settings"], client_capabilities: { user_settings_object: true } }).then(
    ({ user_settings }) => applyColorScheme(user_settings.color_scheme),
    () => undefined,
  );
}
