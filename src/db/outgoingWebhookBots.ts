import { and, eq, sql } from "drizzle-orm";
import { BotType } from "../model/bots";
import { cachedUntilChange } from "./caches";
import { prepared } from "./prepared";
import type { Reader } from "./types";
import { type BotService, type User } from "./users";
import { botServices, users } from "./tables";

/**
 * Which users are active outgoing-webhook bots. Every send with a mention asks, so the answer
 * is kept in memory (db/caches.ts): bots are created, changed and deactivated only in write()
 * transactions, which refresh it. Most organizations have none, and then a send pays one
 * size check.
 */
const activeWebhookBots = prepared((db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.botType, BotType.OUTGOING_WEBHOOK), eq(users.isActive, true)))
    .prepare(),
);

const currentIds = cachedUntilChange("outgoingWebhookBots", async (db): Promise<ReadonlySet<number>> => new Set((await activeWebhookBots(db).all()).map((row) => row.id)));

export async function outgoingWebhookBotIds(db: Reader): Promise<ReadonlySet<number>> {
  return currentIds(db);
}

/** A bot with its service configuration, as a delivery needs it; undefined once it is gone. */
export async function findWebhookBot(db: Reader, botId: number): Promise<{ bot: User; service: BotService } | undefined> {
  const row = (await db.select().from(users).innerJoin(botServices, eq(botServices.botId, users.id)).where(eq(users.id, botId)))[0];
  return row ? { bot: row.users, service: row.bot_services } : undefined;
}

const serviceUrl = prepared((db) =>
  db
    .select({ url: botServices.baseUrl })
    .from(botServices)
    .where(eq(botServices.botId, sql.placeholder("botId")))
    .prepare(),
);

/** A bot's service URL, for the outbox to tell its destination; asked once per queued item. */
export async function webhookServiceUrl(db: Reader, botId: number): Promise<string | undefined> {
  return (await serviceUrl(db).get({ botId }))?.url;
}
