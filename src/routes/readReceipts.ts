import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { getReadReceipts } from "../reads/readReceipts";

export const readReceiptRoutes = new Elysia()
  .use(authentication)
  .get("/messages/:message_id/read_receipts", async ({ user, params }) => success({ user_ids: await getReadReceipts(user, params.message_id) }), {
    auth: true,
    params: t.Object({ message_id: t.Numeric({ multipleOf: 1 }) }),
    query: t.Object({}),
  });
