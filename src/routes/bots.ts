import { Elysia, t } from "elysia";
import { createBot } from "../actions/bots";
import { BotType, ServiceInterface } from "../model/bots";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { getBotConfigurationFile, listOwnBots } from "../reads/bots";

export const botRoutes = new Elysia()
  .use(authentication)
  .get("/bots", async ({ user }) => success({ bots: await listOwnBots(user) }), { auth: true, query: t.Object({}) })
  .post(
    "/bots",
    async ({ user, body }) => {
      const bot = await createBot(user, {
        fullName: body.full_name,
        shortName: body.short_name,
        botType: body.bot_type ?? BotType.GENERIC,
        payloadUrl: body.payload_url,
        interfaceType: body.interface_type ?? ServiceInterface.NATIVE,
      });
      return success({
        user_id: bot.user_id,
        api_key: bot.api_key,
        avatar_url: bot.avatar_url,
        default_sending_stream: bot.default_sending_stream,
        default_events_register_stream: bot.default_events_register_stream,
        default_all_public_streams: bot.default_all_public_streams,
        email: bot.email,
      });
    },
    {
      auth: true,
      body: t.Object({
        full_name: t.String({ maxLength: 1000 }),
        short_name: t.String({ maxLength: 100 }),
        bot_type: t.Optional(t.Numeric()),
        payload_url: t.Optional(t.String({ maxLength: 2048 })),
        interface_type: t.Optional(t.Numeric()),
      }),
    },
  )
  .get(
    "/bots/:bot_id/zuliprc",
    async ({ user, params }) =>
      new Response(await getBotConfigurationFile(user, params.bot_id), {
        headers: { "content-type": "text/plain; charset=utf-8", "content-disposition": "attachment; filename=zuliprc" },
      }),
    { auth: true, params: t.Object({ bot_id: t.Numeric() }), query: t.Object({}) },
  );
