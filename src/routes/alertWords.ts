import { Elysia, t } from "elysia";
import { addAlertWords, MAX_ALERT_WORDS, removeAlertWords } from "../actions/alertWords";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { listOwnAlertWords } from "../reads/alertWords";

// Generous in UTF-16 units: the action counts characters against the reference's limit of 100,
// with the reference's message.
const AlertWordList = t.ArrayString(t.String({ maxLength: 1_000 }), { maxItems: MAX_ALERT_WORDS });

export const alertWordRoutes = new Elysia()
  .use(authentication)
  .get("/users/me/alert_words", async ({ user }) => success({ alert_words: await listOwnAlertWords(user) }), { auth: true, query: t.Object({}) })
  .post("/users/me/alert_words", async ({ user, body }) => success({ alert_words: await addAlertWords(user, body.alert_words) }), {
    auth: true,
    body: t.Object({ alert_words: AlertWordList }),
  })
  .delete("/users/me/alert_words", async ({ user, body }) => success({ alert_words: await removeAlertWords(user, body.alert_words) }), {
    auth: true,
    body: t.Object({ alert_words: AlertWordList }),
  });
