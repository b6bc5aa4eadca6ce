/**
 * The outbox's lanes: one per destination (the mail server; each webhook service), so a slow
 * or dead destination holds up only its own items. A lane runs up to its limit of deliveries at
 * once while its destination answers. The rule when it fails (a timeout, no connection, an
 * answer that says "later"):
 *
 * - after one failure the lane sends one item at a time, at once: the failure may have been
 *   that item's alone;
 * - after two or more failures in a row it pauses, for the outbox's retry delay doubled with
 *   each further failure (PARLEY_OUTBOX_RETRY_BASE_SECONDS up to PARLEY_OUTBOX_RETRY_MAX_SECONDS),
 *   and then sends one item at a time again;
 * - its first success ends the rule: back to its full limit.
 *
 * So the items waiting behind a dead destination are not tried, and spend none of their tries,
 * while one item at a time finds out whether it is back. Lanes live in memory: after a restart
 * every destination starts out healthy.
 */

/** How an attempt ended, as far as its destination is concerned. */
export type LaneOutcome = "answered" | "failed" | "unknown";

interface LaneState {
  running: number;
  failuresInARow: number;
  pausedUntilMs: number;
}

export class Lanes {
  private readonly states = new Map<string, LaneState>();

  /** `pauseSeconds(n)`: the pause after the n-th failure in a row past the first. */
  constructor(private readonly pauseSeconds: (failures: number) => number) {}

  /** Whether one more delivery of `lane` may start now. */
  mayStart(lane: string, limit: number, nowMs: number): boolean {
    const state = this.states.get(lane);
    if (!state) return limit > 0;
    if (state.failuresInARow === 0) return state.running < limit;
    return state.running === 0 && nowMs >= state.pausedUntilMs;
  }

  started(lane: string) {
    const state = this.states.get(lane) ?? { running: 0, failuresInARow: 0, pausedUntilMs: 0 };
    state.running++;
    this.states.set(lane, state);
  }

  /**
   * One delivery of `lane` ended. "unknown": it says nothing of the destination (refused before
   * sending, a permanent refusal of the item). Returns the pause in seconds when one begins.
   */
  finished(lane: string, outcome: LaneOutcome, nowMs: number): number | null {
    const state = this.states.get(lane);
    if (!state) return null;
    state.running--;
    let pause: number | null = null;
    if (outcome === "answered") state.failuresInARow = 0;
    if (outcome === "failed") {
      state.failuresInARow++;
      if (state.failuresInARow >= 2) {
        pause = this.pauseSeconds(state.failuresInARow - 1);
        state.pausedUntilMs = nowMs + pause * 1000;
      }
    }
    if (state.running === 0 && state.failuresInARow === 0) this.states.delete(lane);
    return pause;
  }

  /** Forgets failing lanes nothing waits for any more, once their pause is over. */
  forgetIdle(waiting: ReadonlySet<string>, nowMs: number) {
    for (const [lane, state] of this.states) {
      if (state.running === 0 && nowMs >= state.pausedUntilMs && !waiting.has(lane)) this.states.delete(lane);
    }
  }
}
