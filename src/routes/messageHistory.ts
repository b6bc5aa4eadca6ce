import { Elysia, t } from "elysia";
import { markAllAsRead, markChannelAsRead, markTopicAsRead, updateMessageFlags } from "../actions/messageFlags";
import { updateFlagsForNarrow } from "../actions/messageFlagsNarrow";
import { authentication } from "../http/auth";
import { badRequest, success } from "../http/errors";
import { ignoredFields } from "../http/conventions";
import { jsonEncoded } from "../http/jsonText";
import { successWithLongList } from "../http/longAnswer";
import { parseAnchor } from "../messages/history";
import { parseNarrowParameter } from "../messages/narrow";
import { getMessageMatches, getMessageRange, getMessagesById, getSingleMessage } from "../reads/messages";

/**
 * Reading history and personal flags (reference: get-messages, get-message,
 * check-messages-match-narrow, update-message-flags[-for-narrow], mark-*-as-read).
 * POST /messages (sending) lives in routes/messages.ts.
 */

const flag = () => t.Optional(t.BooleanString());
const Count = t.Numeric({ minimum: 0, maximum: 1_000_000_000, multipleOf: 1 });
const Narrow = t.String(jsonEncoded({ maxLength: 100_000 }));
const MessageIds = t.ArrayString(t.Integer({ minimum: 0 }), { maxItems: 100_000 });
const Anchor = t.String({ maxLength: 40 });

const RANGE_PARAMETERS = ["anchor", "include_anchor", "use_first_unread_anchor", "num_before", "num_after"] as const;

export const messageHistoryRoutes = new Elysia()
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
        anchor: t.Optional(Anchor),
        include_anchor: flag(),
        num_before: t.Optional(Count),
        num_after: t.Optional(Count),
        narrow: t.Optional(Narrow),
        client_gravatar: flag(),
        apply_markdown: flag(),
        use_first_unread_anchor: flag(),
        message_ids: t.Optional(MessageIds),
        allow_empty_topic_name: flag(),
      }),
    },
  )
  .get(
    "/messages/matches_narrow",
    async ({ user, query }) => success({ messages: await getMessageMatches(user, query.msg_ids, parseNarrowParameter(query.narrow)) }),
    { auth: true, query: t.Object({ msg_ids: MessageIds, narrow: Narrow }) },
  )
  .get(
    "/messages/:message_id",
    ({ user, params, query }) =>
      success(
        getSingleMessage(user, params.message_id, {
          applyMarkdown: query.apply_markdown ?? true,
          clientGravatar: query.client_gravatar ?? true,
          allowEmptyTopicName: query.allow_empty_topic_name ?? false,
        }),
      ),
    {
      auth: true,
      params: t.Object({ message_id: t.Numeric({ minimum: 0, multipleOf: 1 }) }),
      query: t.Object({ apply_markdown: flag(), client_gravatar: flag(), allow_empty_topic_name: flag() }),
    },
  )
  .post(
    "/messages/flags",
    async ({ user, body }) => {
      const result = await updateMessageFlags(user, body.messages, body.op, body.flag);
      const removingRead = body.flag === "read" && body.op === "remove";
      return success({ messages: body.messages, ...(removingRead ? { ignored_because_not_subscribed_channels: result.ignoredChannels } : {}) });
    },
    { auth: true, body: t.Object({ messages: MessageIds, op: t.String({ maxLength: 20 }), flag: t.String({ maxLength: 100 }) }) },
  )
  .post(
    "/messages/flags/narrow",
    async ({ user, body }) =>
      success(
        await updateFlagsForNarrow(user, {
          anchor: parseAnchor(body.anchor),
          includeAnchor: body.include_anchor ?? true,
          numBefore: body.num_before,
          numAfter: body.num_after,
          narrow: parseNarrowParameter(body.narrow),
          operation: body.op,
          flag: body.flag,
        }),
      ),
    {
      auth: true,
      body: t.Object({
        anchor: Anchor,
        include_anchor: flag(),
        num_before: Count,
        num_after: Count,
        narrow: Narrow,
        op: t.String({ maxLength: 20 }),
        flag: t.String({ maxLength: 100 }),
      }),
    },
  )
  .post(
    "/mark_all_as_read",
    async ({ user }) => success(await markAllAsRead(user)),
    { auth: true, body: t.Object({}) },
  )
  .post(
    "/mark_stream_as_read",
    async ({ user, body }) => {
      await markChannelAsRead(user, body.stream_id);
      return success();
    },
    { auth: true, body: t.Object({ stream_id: t.Numeric({ multipleOf: 1 }) }) },
  )
  .post(
    "/mark_topic_as_read",
    async ({ user, body }) => {
      await markTopicAsRead(user, body.stream_id, body.topic_name);
      return success();
    },
    { auth: true, body: t.Object({ stream_id: t.Numeric({ multipleOf: 1 }), topic_name: t.String({ maxLength: 1_000 }) }) },
  );
