import { Elysia, t } from "elysia";
import { muteTopicLegacy, updateUserTopic } from "../actions/userTopics";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

// Longer than any topic may be, so that the action's own check gives the reference's message.
const Topic = t.String({ maxLength: 10_000 });

export const userTopicRoutes = new Elysia()
  .use(authentication)
  .post(
    "/user_topics",
    async ({ user, body }) => {
      await updateUserTopic(user, body);
      return success();
    },
    { auth: true, body: t.Object({ stream_id: t.Numeric({ multipleOf: 1 }), topic: Topic, visibility_policy: t.Numeric({ multipleOf: 1 }) }) },
  )
  .patch(
    "/users/me/subscriptions/muted_topics",
    async ({ user, body }) => {
      await muteTopicLegacy(user, body);
      return success();
    },
    {
      auth: true,
      body: t.Object({
        stream_id: t.Optional(t.Numeric({ multipleOf: 1 })),
        stream: t.Optional(t.String({ maxLength: 10_000 })),
        topic: Topic,
        op: t.Union([t.Literal("add"), t.Literal("remove")]),
      }),
    },
  );
