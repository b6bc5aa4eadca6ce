import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Reader, Tx } from "./types";

/**
 * The durable outbox: work for the outside world (e-mails now, outgoing webhooks later) is
 * written here in the same transaction as the change that causes it, and a sender delivers
 * it after COMMIT. A rollback leaves nothing to send, and a crash loses nothing queued.
 * A sender takes rows with sent_at null and next_attempt_at due, in ID order, and on failure
 * counts the attempt and pushes next_attempt_at back.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").$type<OutboxItem["kind"]>().notNull(),
    payload: text("payload", { mode: "json" }).$type<OutboxItem["payload"]>().notNull(),
    createdAt: integer("created_at").notNull(),
    /** When delivery succeeded; null while pending. */
    sentAt: integer("sent_at"),
    attempts: integer("attempts").notNull().default(0),
    /** Not before this time (UNIX seconds): lets a sender back off after failures. */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
  },
  (table) => [index("outbox_pending").on(table.sentAt, table.nextAttemptAt)],
);

/** Everything the outbox carries, one kind per variant, so the sender can switch on `kind`. */
export type OutboxItem = {
  kind: "account_deactivated_email";
  payload: {
    user_id: number;
    /** Captured now: the address may change before the mail goes out. */
    to: string;
    full_name: string;
    realm_name: string;
    realm_url: string;
    /** The administrator's words for the e-mail; null when they wrote none. */
    comment: string | null;
  };
};

export function enqueueOutbox(tx: Tx, item: OutboxItem, now: number) {
  tx.insert(outbox).values({ kind: item.kind, payload: item.payload, createdAt: now, nextAttemptAt: now }).run();
}
