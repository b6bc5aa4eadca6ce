import { startArea } from "../ui/app";
import type { NavItem } from "../ui/frame";
import ApiKeySection from "./apiKey";
import DisplaySection from "./display";
import NotificationsSection from "./notifications";
import PasswordSection from "./password";
import PrivacySection from "./privacy";
import ProfileSection from "./profile";
import SessionsSection from "./sessions";
import SnippetsSection from "./snippets";
import StatusSection from "./status";
import { loadUserSettings } from "./userSettings";

/** A person's own settings: every signed-in person has this area, one file per section. */

// The person's colour scheme applies to this page from the start, whichever section opens.
void loadUserSettings().catch(() => undefined);

startArea(
  "Settings",
  [
    { path: "/settings/profile", label: "Profile", icon: "user", component: ProfileSection, group: "Your account" },
    { path: "/settings/status", label: "Status", icon: "note", component: StatusSection },
    { path: "/settings/password", label: "Password", icon: "lock", component: PasswordSection },
    { path: "/settings/notifications", label: "Notifications", icon: "bell", component: NotificationsSection, group: "Preferences" },
    { path: "/settings/display", label: "Display", icon: "eye", component: DisplaySection },
    { path: "/settings/privacy", label: "Privacy", icon: "shield", component: PrivacySection },
    { path: "/settings/api-key", label: "API key", icon: "key", component: ApiKeySection, group: "Access" },
    { path: "/settings/sessions", label: "Sessions", icon: "monitor", component: SessionsSection },
    { path: "/settings/snippets", label: "Saved snippets", icon: "note", component: SnippetsSection, group: "Messages" },
  ],
  (me) => {
    const links: NavItem[] = [{ path: "/", label: "Chat", icon: "chat", reload: true, top: true }];
    if (me.is_admin) links.push({ path: "/admin/", label: "Administration", icon: "settings", group: "Organization", reload: true });
    return links;
  },
);
