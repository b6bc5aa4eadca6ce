import { Elysia, t } from "elysia";
import { editScheduledMessage, removeScheduledMessage, scheduleMessage } from "../actions/scheduledMessages";
import { authentication } from "../http/auth";
import { requestLimits } from "../http/requestLimits";
import { success } from "../http/errors";
import { jsonEncoded } from "../http/jsonText";
import { clientName } from "../messages/client";
import { listOwnScheduledMessages } from "../reads/scheduledMessages";

// Generous bounds so a huge request is a 400 at once; the actions apply the real limits
// (content and topic lengths in code points, spec 8).
const type = t.String({ maxLength: 20 });
const to = t.String(jsonEncoded({ minLength: 1, maxLength: 100_000 }));
const content = t.String({ maxLength: 100_000 });
const topic = t.String({ maxLength: 1_000 });
// A JSON integer (spec convention 6: UNIX seconds); bounded so it stays a date.
const timestamp = t.Numeric({ multipleOf: 1, minimum: 0, maximum: 253_402_300_799 });

const ScheduleParams = t.Object({
  type,
  to,
  content,
  topic: t.Optional(topic),
  subject: t.Optional(topic),
  scheduled_delivery_timestamp: timestamp,
  read_by_sender: t.Optional(t.BooleanString()),
  client: t.Optional(t.String({ maxLength: 100 })),
});

const EditParams = t.Object({
  type: t.Optional(type),
  to: t.Optional(to),
  content: t.Optional(content),
  topic: t.Optional(topic),
  subject: t.Optional(topic),
  scheduled_delivery_timestamp: t.Optional(timestamp),
  client: t.Optional(t.String({ maxLength: 100 })),
});

const scheduledMessageId = t.Object({ scheduled_message_id: t.Numeric({ multipleOf: 1, minimum: 0 }) });

const clientOf = (param: string | undefined, request: Request) => clientName(param, request.headers.get("user-agent") ?? undefined);

/** Scheduled messages (spec 4.2) and the reference's list, edit and delete. */
export const scheduledMessageRoutes = new Elysia()
  .use(authentication)
  .use(requestLimits)
  .get("/scheduled_messages", async ({ user }) => success({ scheduled_messages: await listOwnScheduledMessages(user) }), { auth: true, query: t.Object({}) })
  .post(
    "/scheduled_messages",
    async ({ user, body, request }) =>
      success(
        await scheduleMessage(user, {
          type: body.type,
          to: body.to,
          content: body.content,
          topic: body.topic ?? body.subject,
          scheduledDeliveryTimestamp: body.scheduled_delivery_timestamp,
          readBySender: body.read_by_sender,
          client: clientOf(body.client, request),
        }),
      ),
    { auth: true, limit: "sends", body: ScheduleParams },
  )
  .patch(
    "/scheduled_messages/:scheduled_message_id",
    async ({ user, params, body, request }) => {
      await editScheduledMessage(user, params.scheduled_message_id, {
        type: body.type,
        to: body.to,
        content: body.content,
        topic: body.topic ?? body.subject,
        scheduledDeliveryTimestamp: body.scheduled_delivery_timestamp,
        client: clientOf(body.client, request),
      });
      return success();
    },
    { auth: true, params: scheduledMessageId, body: EditParams },
  )
  .delete(
    "/scheduled_messages/:scheduled_message_id",
    async ({ user, params }) => {
      await removeScheduledMessage(user, params.scheduled_message_id);
      return success();
    },
    { auth: true, params: scheduledMessageId, body: t.Object({}) },
  );
