import { Elysia, t } from "elysia";
import { removeBotStorage, updateBotStorage } from "../actions/botStorage";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { jsonEncoded, MAX_JSON_TEXT_LENGTH } from "../http/jsonText";
import { getBotStorage } from "../reads/botStorage";

/**
 * The bot storage API (not in the reference's description; python-zulip-api's get_storage,
 * update_storage and remove_storage, the reference server's zerver/views/storage.py).
 * `storage` is a JSON object of strings (decoded by the action); `keys` a JSON list of strings.
 */

const Keys = t.ArrayString(t.String(), { maxItems: 10_000 });
const KeysParams = t.Object({ keys: t.Optional(Keys) });

export const botStorageRoutes = new Elysia()
  .use(authentication)
  .get("/bot_storage", async ({ user, query }) => success({ storage: await getBotStorage(user, query.keys) }), { auth: true, query: KeysParams })
  .put(
    "/bot_storage",
    async ({ user, body }) => {
      await updateBotStorage(user, body.storage);
      return success();
    },
    { auth: true, body: t.Object({ storage: t.String(jsonEncoded({ maxLength: MAX_JSON_TEXT_LENGTH })) }) },
  )
  .delete(
    "/bot_storage",
    async ({ user, body }) => {
      await removeBotStorage(user, body.keys);
      return success();
    },
    { auth: true, body: KeysParams },
  );
