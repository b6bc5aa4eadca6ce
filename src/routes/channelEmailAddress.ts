import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { getChannelEmailAddress } from "../reads/channelEmailAddress";

/** GET /streams/{stream_id}/email_address (reference: get-stream-email-address); mail to it is not delivered. */
export const channelEmailAddressRoutes = new Elysia()
  .use(authentication)
  .get(
    "/streams/:stream_id/email_address",
    async ({ user, params, query }) => success({ email: await getChannelEmailAddress(user, params.stream_id, query.sender_id) }),
    {
      auth: true,
      params: t.Object({ stream_id: t.Numeric({ minimum: 0, multipleOf: 1 }) }),
      query: t.Object({ sender_id: t.Optional(t.Numeric({ multipleOf: 1 })) }),
    },
  );
