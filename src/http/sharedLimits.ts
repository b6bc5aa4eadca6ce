/**
 * Rate limits and sign-in lockouts across a cluster's nodes. Each node counts in memory
 * (http/rateBucket.ts, http/rateLimit.ts); what it counts is told to the others
 * (cluster/sharedLimits.ts carries it over the bus), who count it too. So a client spreading
 * its requests or its password guesses over the nodes gets what it would get from one.
 *
 * Every limit that can be shared has a name, the same on every node; what another node spent or
 * recorded is applied under that name and never told on again. A single process tells no one.
 */

export type LimitNote =
  | { kind: "spent"; limit: string; key: number | string; cost: number; at: number }
  | { kind: "failed"; limit: string; key: string; at: number }
  | { kind: "forgot"; limit: string; key: string }
  | { kind: "trusted"; limit: string; key: string; at: number };

interface Shareable {
  apply(note: LimitNote): void;
}

const named = new Map<string, Shareable>();
let teller: ((note: LimitNote) => void) | null = null;

/** Notes for limits this node has not made yet (the sign-in limits are made at the first sign-in): applied when it does. */
const early = new Map<string, LimitNote[]>();
const MAX_EARLY_NOTES = 10_000;
let earlyCount = 0;

/** A limit whose counts are shared under `name`; a second limit of the same name replaces the first (tests configure again). */
export function shareUnder(name: string, limit: Shareable) {
  named.set(name, limit);
  const waiting = early.get(name);
  if (!waiting) return;
  early.delete(name);
  earlyCount -= waiting.length;
  for (const note of waiting) limit.apply(note);
}

/** What this node counts goes to `tell` (the cluster's bus); null: told no one. */
export function tellLimitsTo(tell: ((note: LimitNote) => void) | null) {
  teller = tell;
}

/** Called by a limit as it counts locally. */
export function told(note: LimitNote) {
  teller?.(note);
}

/** What another node counted, counted here too. */
export function countedElsewhere(note: LimitNote) {
  const limit = named.get(note.limit);
  if (limit) return limit.apply(note);
  if (earlyCount >= MAX_EARLY_NOTES) return;
  (early.get(note.limit) ?? early.set(note.limit, []).get(note.limit)!).push(note);
  earlyCount++;
}
