import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { badRequest, success } from "../http/errors";
import { ignoredFields } from "../http/conventions";
import { successWithLongList } from "../http/longAnswer";
import { AnchorParam, CountParam, MessageIdsParam, NarrowParam, optionalFlag } from "../http/params";
import { parseAnchor } from "../messages/history";
import { parseNarrowParameter } from "../messages/narrow";
import { getMessageMatches, getMessageRange, getMessagesById, getSingleMessage } from "../reads/messages";

/**
 * Reading history (reference: get-messages, get-message, check-messages-match-narrow).
 * Sending is routes/messages.ts; personal flags and marking as read, routes/messageFlags.ts.
 */

const RANGE_PARAMETERS = ["anchor", "include_anchor", "use_first_unread_anchor", "num_before", "num_after"] as const;

export const messageReadingRoutes = new Elysia()
  .use(authentication)
  .get(
    "/messages",
    async ({ user, query, request }) => {
      const narrow = parseNarrowParameter(query.narrow);
      const options = { applyMarkdown: query.apply_markdown ?? true, clientGravatar: query.client_gravatar ?? true, allowEmptyTopicName: query.allow_empty_topic_name ?? false };
      if (query.message_ids !== undefined) {
        const combined = RANGE_PARAMETERS.filter((name) => query[name] !== undefined);
        if (combined.length > 0) throw badRequest(`Unsupported parameter combination: message_ids, ${combined.join(", ")}`);
        const { messages, ...rest } = await getMessagesById(user, narrow, query.message_ids, options);
        return successWithLongList({ ...rest, ...ignoredFields(request, query) }, "messages", messages);
      }
      if (query.num_before === undefined) throw badRequest("Missing 'num_before' argument");
      if (query.num_after === undefined) throw badRequest("Missing 'num_after' argument");
      const anchor = query.use_first_unread_anchor ? "first_unread" : query.anchor === undefined ? undefined : parseAnchor(query.anchor);
      const range = { anchor, numBefore: query.num_before, numAfter: query.num_after, includeAnchor: query.include_anchor ?? true };
      const { messages, ...rest } = await getMessageRange(user, narrow, range, options);
      return successWithLongList({ ...rest, ...ignoredFields(request, query) }, "messages", messages);
    },
    {
      auth: true,
      query: t.Object({
        anchor: t.Optional(AnchorParam),
        include_anchor: optionalFlag(),
        num_before: t.Optional(CountParam),
        num_after: t.Optional(CountParam),
        narrow: t.Optional(NarrowParam),
        client_gravatar: optionalFlag(),
        apply_markdown: optionalFlag(),
        use_first_unread_anchor: optionalFlag(),
        message_ids: t.Optional(MessageIdsParam),
        allow_empty_topic_name: optionalFlag(),
      }),
    },
  )
  .get(
    "/messages/matches_narrow",
    async ({ user, query }) => success({ messages: await getMessageMatches(user, query.msg_ids, parseNarrowParameter(query.narrow)) }),
    { auth: true, query: t.Object({ msg_ids: MessageIdsParam, narrow: NarrowParam }) },
  )
  .get(
    "/messages/:message_id",
    async ({ user, params, query }) =>
      success(
        await getSingleMessage(user, params.message_id, {
          applyMarkdown: query.apply_markdown ?? true,
          clientGravatar: query.client_gravatar ?? true,
          allowEmptyTopicName: query.allow_empty_topic_name ?? false,
        }),
      ),
    {
      auth: true,
      params: t.Object({ message_id: t.Numeric({ minimum: 0, multipleOf: 1 }) }),
      query: t.Object({ apply_markdown: optionalFlag(), client_gravatar: optionalFlag(), allow_empty_topic_name: optionalFlag() }),
    },
  );
