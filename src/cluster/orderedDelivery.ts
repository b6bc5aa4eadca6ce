import type { LoggedBatch } from "../db/eventLog";

/**
 * Applies the event log's rows (db/eventLog.ts) in ID order, each exactly once, whatever order
 * they arrive in: this node's own rows at its COMMIT, other nodes' through the bus, which may
 * bring them late, twice, or (a node that died between COMMIT and publish) never. A row that
 * arrives with a gap before it waits `gapWaitMs` for the gap to fill; then the log itself is
 * read for what is missing. A missing ID the log does not have was rolled back: since writes take
 * turns, a visible row means every smaller ID has committed or never will.
 */
export interface DeliveryIo {
  /** Rows after `afterId` and before `beforeId` (null: up to the newest), from the log, oldest first. */
  fill(afterId: number, beforeId: number | null): Promise<LoggedBatch[]>;
  /** Rows in ID order, consecutive: applied together (a queue is woken once for all of them). */
  apply(rows: LoggedBatch[]): void | Promise<void>;
  /** How long a gap may stay open before the log is read. */
  gapWaitMs: number;
  failed(error: unknown): void;
}

export class OrderedDelivery {
  private readonly waiting = new Map<number, LoggedBatch>();
  private gapTimer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private drainQueued = false;

  /** `applied`: the newest ID already applied (or not to be): delivery starts after it. */
  constructor(
    private applied: number,
    private readonly io: DeliveryIo,
  ) {}

  private readonly waiters: Array<{ id: number; resolve: () => void }> = [];

  /** The newest row applied so far. */
  get position(): number {
    return this.applied;
  }

  /** Resolves once row `id` is applied (or known never to be). */
  whenApplied(id: number): Promise<void> {
    if (id <= this.applied || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ id, resolve }));
  }

  private wake() {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].id <= this.applied || this.stopped) this.waiters.splice(i, 1)[0].resolve();
    }
  }

  offer(row: LoggedBatch) {
    if (this.stopped || row.id <= this.applied || this.waiting.has(row.id)) return;
    this.waiting.set(row.id, row);
    // Applied after the rest of this turn of the event loop: rows the bus brought in one read
    // are then applied together, and each queue is woken once for all of them.
    if (this.drainQueued) return;
    this.drainQueued = true;
    setImmediate(() => {
      this.drainQueued = false;
      this.schedule(() => this.drain());
    });
  }

  /** The log's newest ID is `newest` (a periodic look): rows nobody published are read now. */
  catchUpTo(newest: number) {
    if (newest > this.applied && this.waiting.size === 0) this.schedule(() => this.fillGap());
  }

  stop() {
    this.stopped = true;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.wake();
  }

  /** Runs `work` after what is running: rows are applied one at a time. */
  private schedule(work: () => Promise<void>) {
    this.running = this.running.then(work).catch((error: unknown) => this.io.failed(error));
  }

  private async drain() {
    while (!this.stopped) {
      const rows: LoggedBatch[] = [];
      for (let row = this.waiting.get(this.applied + 1); row !== undefined; row = this.waiting.get(this.applied + 1)) {
        this.waiting.delete(row.id);
        this.applied = row.id;
        rows.push(row);
      }
      if (rows.length === 0) break;
      await this.io.apply(rows);
    }
    this.wake();
    if (this.waiting.size > 0 && this.gapTimer === null && !this.stopped) {
      this.gapTimer = setTimeout(() => {
        this.gapTimer = null;
        this.schedule(() => this.fillGap());
      }, this.io.gapWaitMs);
    }
  }

  private async fillGap() {
    const before = this.waiting.size > 0 ? Math.min(...this.waiting.keys()) : null;
    if (before !== null && before === this.applied + 1) return this.drain();
    // The log is read in pages until it has nothing more before the first waiting row.
    for (let rows = await this.io.fill(this.applied, before); rows.length > 0; rows = await this.io.fill(this.applied, before)) {
      if (this.stopped) return;
      const fresh = rows.filter((row) => row.id > this.applied);
      for (const row of fresh) this.waiting.delete(row.id);
      if (fresh.length > 0) this.applied = fresh[fresh.length - 1].id;
      await this.io.apply(fresh);
    }
    // Whatever is still missing before the first waiting row was rolled back.
    if (before !== null && this.applied < before - 1) this.applied = before - 1;
    await this.drain();
  }
}
