import { Elysia, t } from "elysia";
import { deleteMessage } from "../actions/deleteMessage";
import { deleteTopic } from "../actions/deleteTopic";
import { editMessage } from "../actions/editMessage";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

/** Changing what was sent: editing and moving messages, deleting messages and topics. */

const MessageIdParams = t.Object({ message_id: t.Numeric({ multipleOf: 1 }) });
const PropagateMode = t.Union([t.Literal("change_one"), t.Literal("change_later"), t.Literal("change_all")]);

// Lengths in code points are the action's business (spec 8); these bounds keep absurd input out.
const EditParams = t.Object({
  content: t.Optional(t.String({ maxLength: 100_000 })),
  topic: t.Optional(t.String({ maxLength: 1_000 })),
  subject: t.Optional(t.String({ maxLength: 1_000 })),
  stream_id: t.Optional(t.Numeric({ multipleOf: 1 })),
  propagate_mode: t.Optional(PropagateMode),
  send_notification_to_old_thread: t.Optional(t.BooleanString()),
  send_notification_to_new_thread: t.Optional(t.BooleanString()),
});

export const messageEditRoutes = new Elysia()
  .use(authentication)
  .patch(
    "/messages/:message_id",
    async ({ user, params, body }) =>
      success(
        await editMessage(user, params.message_id, {
          content: body.content,
          topic: body.topic ?? body.subject,
          streamId: body.stream_id,
          propagateMode: body.propagate_mode ?? "change_one",
          notifyOldThread: body.send_notification_to_old_thread ?? false,
          notifyNewThread: body.send_notification_to_new_thread ?? true,
        }),
      ),
    { auth: true, params: MessageIdParams, body: EditParams },
  )
  .delete(
    "/messages/:message_id",
    async ({ user, params }) => {
      await deleteMessage(user, params.message_id);
      return success();
    },
    { auth: true, params: MessageIdParams, body: t.Object({}) },
  )
  .post("/streams/:stream_id/delete_topic", async ({ user, params, body }) => success(await deleteTopic(user, params.stream_id, body.topic_name)), {
    auth: true,
    params: t.Object({ stream_id: t.Numeric({ multipleOf: 1 }) }),
    body: t.Object({ topic_name: t.String({ maxLength: 1_000 }) }),
  });
