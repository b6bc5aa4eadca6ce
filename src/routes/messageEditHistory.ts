import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { ignoredFields } from "../http/conventions";
import { successWithLongList } from "../http/longAnswer";
import { getMessageEditHistory } from "../reads/messageEditHistory";

/** GET /messages/{message_id}/history (reference: get-message-history). */
export const messageEditHistoryRoutes = new Elysia()
  .use(authentication)
  .get(
    "/messages/:message_id/history",
    async ({ user, params, query, request }) => {
      const history = await getMessageEditHistory(user, params.message_id, { allowEmptyTopicName: query.allow_empty_topic_name ?? false });
      return successWithLongList(ignoredFields(request, query, params), "message_history", history);
    },
    {
      auth: true,
      params: t.Object({ message_id: t.Numeric({ minimum: 0, multipleOf: 1 }) }),
      query: t.Object({ allow_empty_topic_name: t.Optional(t.BooleanString()) }),
    },
  );
