import { startArea } from "../ui/app";
import BotsSection from "./bots";
import ChannelsSection from "./channels";
import GroupsSection from "./groups";
import InvitationsSection from "./invitations";
import OrganizationSection from "./organization";
import PeopleSection from "./people";
import ServerSection from "./server";

/** The admin console: one folder per section; every change goes through /api/v1 and its rules. */
startArea(
  "Administration",
  [
    { path: "/admin/people", label: "People", icon: "people", component: PeopleSection, group: "Organization" },
    { path: "/admin/invitations", label: "Invitations", icon: "mail", component: InvitationsSection },
    { path: "/admin/bots", label: "Bots", icon: "bot", component: BotsSection },
    { path: "/admin/channels", label: "Channels", icon: "hash", component: ChannelsSection },
    { path: "/admin/groups", label: "User groups", icon: "groups", component: GroupsSection },
    { path: "/admin/organization", label: "Settings", icon: "settings", component: OrganizationSection },
    { path: "/admin/server", label: "Server", icon: "server", component: ServerSection, group: "Server" },
  ],
  [
    { path: "/", label: "Chat", icon: "chat", reload: true, top: true },
    { path: "/settings/", label: "My account", icon: "user", group: "You", reload: true },
  ],
);
