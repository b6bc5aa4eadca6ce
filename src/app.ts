import { Elysia } from "elysia";
import { conventions } from "./http/conventions";
import { authRoutes } from "./routes/auth";
import { botRoutes } from "./routes/bots";
import { channelRoutes } from "./routes/channels";
import { deactivationRoutes } from "./routes/deactivation";
import { draftRoutes } from "./routes/drafts";
import { eventRoutes } from "./routes/events";
import { linkifierRoutes } from "./routes/linkifiers";
import { messageEditRoutes } from "./routes/messageEdits";
import { messageHistoryRoutes } from "./routes/messageHistory";
import { messageRoutes } from "./routes/messages";
import { pushDeviceRoutes } from "./routes/pushDevices";
import { reactionRoutes } from "./routes/reactions";
import { realmDefaultsRoutes } from "./routes/realmDefaults";
import { savedSnippetRoutes } from "./routes/savedSnippets";
import { serverRoutes } from "./routes/server";
import { settingsRoutes } from "./routes/settings";
import { subscriptionRoutes } from "./routes/subscriptions";
import { typingRoutes } from "./routes/typing";
import { userGroupRoutes } from "./routes/userGroups";
import { userRoutes } from "./routes/users";
import { userStatusRoutes } from "./routes/userStatus";
import { webRoutes } from "./web/routes";

/** The one place routes, plugins and jobs are wired together; tests and main both use it. */
export function createApp() {
  const api = new Elysia({ prefix: "/api/v1" }).use(serverRoutes).use(authRoutes).use(userRoutes).use(botRoutes).use(eventRoutes).use(settingsRoutes).use(realmDefaultsRoutes).use(draftRoutes).use(deactivationRoutes).use(channelRoutes).use(subscriptionRoutes).use(messageRoutes).use(messageHistoryRoutes).use(messageEditRoutes).use(reactionRoutes).use(linkifierRoutes).use(savedSnippetRoutes).use(userStatusRoutes).use(typingRoutes).use(pushDeviceRoutes).use(userGroupRoutes);
  return new Elysia().use(conventions).use(api).use(webRoutes);
}

export type App = ReturnType<typeof createApp>;
