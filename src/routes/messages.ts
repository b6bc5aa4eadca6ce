import { Elysia, t } from "elysia";
import { sendMessage } from "../actions/sendMessage";
import { authentication } from "../http/auth";
import { requestLimits } from "../http/requestLimits";
import { success } from "../http/errors";
import { clientName } from "../messages/client";
import { jsonEncoded } from "../http/jsonText";

// Content and topic lengths are counted in code points by the action (spec 8); these bounds
// only keep absurd requests from being parsed at all.
const SendParams = t.Object({
  type: t.String({ maxLength: 20 }),
  to: t.String(jsonEncoded({ minLength: 1, maxLength: 100_000 })),
  content: t.String({ maxLength: 100_000 }),
  topic: t.Optional(t.String({ maxLength: 1_000 })),
  subject: t.Optional(t.String({ maxLength: 1_000 })),
  queue_id: t.Optional(t.String({ maxLength: 100 })),
  local_id: t.Optional(t.String({ maxLength: 100 })),
  read_by_sender: t.Optional(t.BooleanString()),
  client: t.Optional(t.String({ maxLength: 100 })),
});

/** POST /messages (spec 4.1). Reading history is routes/messageReading.ts. */
export const messageRoutes = new Elysia().use(authentication).use(requestLimits).post(
  "/messages",
  async ({ user, body, request }) =>
    success({
      ...(await sendMessage(user, {
        type: body.type,
        to: body.to,
        content: body.content,
        topic: body.topic ?? body.subject,
        client: clientName(body.client, request.headers.get("user-agent") ?? undefined),
        readBySender: body.read_by_sender,
        queueId: body.queue_id,
        localId: body.local_id,
      })),
    }),
  { auth: true, limit: "sends", body: SendParams },
);
