import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { AnyEvent, DeliveryOptions } from "../events/types";

/** Anything queries can read through: the database or an open transaction. */
export type Reader = BaseSQLiteDatabase<"sync", void, Record<string, unknown>>;

/**
 * An open write transaction. Events emitted on it are handed to the event registry after
 * COMMIT, and vanish with a rollback.
 */
export type Tx = Reader & {
  emit(event: AnyEvent, userIds: Iterable<number>, options?: DeliveryOptions): void;
};
