/**
 * Work that must not overlap, run one piece at a time in the order it asked (first come, first
 * served). A piece that finds no one working and no one waiting starts at once, in the same
 * turn of the event loop: a write whose callback never awaits runs whole when it is called.
 */
export class Turns {
  private busy = false;
  private readonly waiting: Array<() => void> = [];

  run<T>(work: () => Promise<T>): Promise<T> {
    if (!this.busy && this.waiting.length === 0) return this.hold(work);
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.hold(work));
  }

  /** How many pieces wait for their turn (for tests and metrics). */
  get queued(): number {
    return this.waiting.length;
  }

  private hold<T>(work: () => Promise<T>): Promise<T> {
    this.busy = true;
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      this.release();
      return Promise.reject(error);
    }
    return running.then(
      (value) => {
        this.release();
        return value;
      },
      (error: unknown) => {
        this.release();
        throw error;
      },
    );
  }

  /** Hands the turn straight to the next in line, so no newcomer slips in between. */
  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }
}
