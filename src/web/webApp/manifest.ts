import type { AppIconPaths } from "../assets/appIcons";

/**
 * The web app manifest (served at /manifest.webmanifest): what a phone or desktop browser needs
 * to install the chat as an app of its own, named after the organization, opening at `/` in
 * its own window, with Parley's icon. The organization has no icon of its own to offer (no
 * upload exists yet), so Parley's, drawn at build time, is the one used.
 */

/** The app's background in light mode (--bg), for the window frame and the splash screen. */
export const APP_BACKGROUND = "#f6f7f9";

/** Home screens show about a dozen characters under an icon. */
const SHORT_NAME_LENGTH = 12;

/** The organization's name as short as a home screen shows it: whole when it fits, else its first word, else cut. */
export function shortNameOf(name: string): string {
  if (name.length <= SHORT_NAME_LENGTH) return name;
  const first = name.split(/\s+/)[0] ?? "";
  return first.length <= SHORT_NAME_LENGTH && first.length > 0 ? first : name.slice(0, SHORT_NAME_LENGTH).trim();
}

export function webAppManifest(organizationName: string | undefined, icons: AppIconPaths) {
  const name = organizationName?.trim() || "Parley";
  const icon = (path: string, size: number, purpose: "any" | "maskable") => ({ src: `/static/web/${path}`, sizes: `${size}x${size}`, type: "image/png", purpose });
  return {
    id: "/",
    name,
    short_name: shortNameOf(name),
    description: `${name} on Parley: channels, topics and direct messages.`,
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: APP_BACKGROUND,
    background_color: APP_BACKGROUND,
    icons: [icon(icons.any192, 192, "any"), icon(icons.any512, 512, "any"), icon(icons.maskable512, 512, "maskable")],
  };
}
