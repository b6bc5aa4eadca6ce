import { Elysia } from "elysia";
import { conventions } from "./http/conventions";
import { authRoutes } from "./routes/auth";
import { botRoutes } from "./routes/bots";
import { channelRoutes } from "./routes/channels";
import { eventRoutes } from "./routes/events";
import { serverRoutes } from "./routes/server";
import { settingsRoutes } from "./routes/settings";
import { subscriptionRoutes } from "./routes/subscriptions";
import { userRoutes } from "./routes/users";

/** The one place routes, plugins and jobs are wired together; tests and main both use it. */
export function createApp() {
  const api = new Elysia({ prefix: "/api/v1" }).use(serverRoutes).use(authRoutes).use(userRoutes).use(botRoutes).use(eventRoutes).use(settingsRoutes).use(channelRoutes).use(subscriptionRoutes);
  return new Elysia().use(conventions).use(api);
}

export type App = ReturnType<typeof createApp>;
