import { Elysia, t } from "elysia";
import { addWebPushSubscription, removeWebPushSubscription } from "../actions/webPushSubscriptions";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { listWebPushSubscriptions } from "../reads/webPushSubscriptions";

// Bounds past the action's own checks, so that an overlong value gets the action's message.
const Endpoint = t.String({ minLength: 1, maxLength: 10_000 });
const Key = t.String({ minLength: 1, maxLength: 1_000 });

/** Web Push subscriptions of the user's browsers (docs/API.md). */
export const webPushSubscriptionRoutes = new Elysia()
  .use(authentication)
  .get("/users/me/web_push_subscriptions", async ({ user }) => success({ subscriptions: await listWebPushSubscriptions(user) }), { auth: true, query: t.Object({}) })
  .post("/users/me/web_push_subscriptions", async ({ user, body }) => success(await addWebPushSubscription(user, body)), {
    auth: true,
    body: t.Object({ endpoint: Endpoint, p256dh: Key, auth: Key }),
  })
  .delete(
    "/users/me/web_push_subscriptions",
    async ({ user, body }) => {
      await removeWebPushSubscription(user, body.endpoint);
      return success();
    },
    { auth: true, body: t.Object({ endpoint: Endpoint }) },
  );
