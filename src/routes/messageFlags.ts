import { Elysia, t } from "elysia";
import { markAllAsRead, markChannelAsRead, markTopicAsRead, updateMessageFlags } from "../actions/messageFlags";
import { updateFlagsForNarrow } from "../actions/messageFlagsNarrow";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { AnchorParam, CountParam, MessageIdsParam, NarrowParam, optionalFlag } from "../http/params";
import { parseAnchor } from "../messages/history";
import { parseNarrowParameter } from "../messages/narrow";

/** Personal flags and marking as read (reference: update-message-flags[-for-narrow], mark-*-as-read). */

export const messageFlagRoutes = new Elysia()
  .use(authentication)
  .post(
    "/messages/flags",
    async ({ user, body }) => {
      const result = await updateMessageFlags(user, body.messages, body.op, body.flag);
      const removingRead = body.flag === "read" && body.op === "remove";
      return success({ messages: body.messages, ...(removingRead ? { ignored_because_not_subscribed_channels: result.ignoredChannels } : {}) });
    },
    { auth: true, body: t.Object({ messages: MessageIdsParam, op: t.String({ maxLength: 20 }), flag: t.String({ maxLength: 100 }) }) },
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
        anchor: AnchorParam,
        include_anchor: optionalFlag(),
        num_before: CountParam,
        num_after: CountParam,
        narrow: NarrowParam,
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
