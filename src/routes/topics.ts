import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { listChannelTopics } from "../reads/topics";

/** GET /users/me/{stream_id}/topics (reference: get-stream-topics). */
export const topicRoutes = new Elysia()
  .use(authentication)
  .get(
    "/users/me/:stream_id/topics",
    async ({ user, params, query }) => success({ topics: await listChannelTopics(user, params.stream_id, { allowEmptyTopicName: query.allow_empty_topic_name ?? false }) }),
    {
      auth: true,
      params: t.Object({ stream_id: t.Numeric({ minimum: 0, multipleOf: 1 }) }),
      query: t.Object({ allow_empty_topic_name: t.Optional(t.BooleanString()) }),
    },
  );
