import { dialect } from "./dialect";

/**
 * One-at-a-time work in a cluster (the outbox's sending, scheduled deliveries, expiries): the
 * node that holds a job's PostgreSQL advisory lock runs it, on a connection of its own held for
 * as long as it leads. Should that node die, PostgreSQL drops the lock with its connection and
 * another node takes the job over at its next try. A single process (SQLite, or PostgreSQL
 * without a cluster) always leads.
 */

export interface LeadershipPool {
  reserve(): Promise<ReservedConnection>;
}

interface ReservedConnection {
  unsafe(text: string, params?: unknown[]): PromiseLike<Array<Record<string, unknown>>>;
  release(): void;
}

let pool: LeadershipPool | null = null;
const held = new Map<number, ReservedConnection>();

export function useLeadershipPool(next: LeadershipPool | null) {
  pool = next;
}

/** Whether this process may lead at all without asking: no database server to share. */
export const leadsAlone = () => dialect() === "sqlite" || pool === null;

/** Tries to take the lock `key`; true when this process now holds it (or already did). */
export async function tryToLead(key: number): Promise<boolean> {
  if (leadsAlone() || held.has(key)) return true;
  const connection = await pool!.reserve();
  try {
    const [row] = await connection.unsafe("SELECT pg_try_advisory_lock($1) AS taken", [key]);
    if (row?.taken === true) {
      held.set(key, connection);
      return true;
    }
  } catch {
    // Treated as not taken; tried again later.
  }
  connection.release();
  return false;
}

/** Gives up the lock `key`, if held. */
export async function stopLeading(key: number) {
  const connection = held.get(key);
  if (!connection) return;
  held.delete(key);
  await Promise.resolve(connection.unsafe("SELECT pg_advisory_unlock($1)", [key])).catch(() => {});
  connection.release();
}

export async function releaseLeaderships() {
  for (const key of [...held.keys()]) await stopLeading(key);
}
