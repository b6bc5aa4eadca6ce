import type { Person } from "../helpers/seed";

/**
 * The second client of the stall test: GET /users/me, one request after another, as long as
 * it runs. What a case cost everyone else is the longest of these that overlapped it.
 */
export class Watcher {
  private spans: Array<{ start: number; end: number }> = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(person: Person) {
    this.loop = this.watch(person);
  }

  private async watch(person: Person) {
    while (this.running) {
      const start = performance.now();
      const response = await person.api.get("/users/me");
      if (response.status !== 200) throw new Error(`GET /users/me answered ${response.status}: ${JSON.stringify(response.body)}`);
      this.spans.push({ start, end: performance.now() });
      // Only the recent past is ever asked about.
      if (this.spans.length > 10_000) this.spans.splice(0, 5_000);
    }
  }

  /** The longest GET /users/me that was under way at any moment between `from` and `to`. */
  worstWait(from: number, to: number): number {
    let worst = 0;
    for (const span of this.spans) if (span.end >= from && span.start <= to) worst = Math.max(worst, span.end - span.start);
    return worst;
  }

  /** Resolves once a request that started after `moment` has been answered. */
  async answeredSince(moment: number) {
    while (!this.spans.some((span) => span.start >= moment)) await Bun.sleep(2);
  }

  async stop() {
    this.running = false;
    await this.loop;
  }
}
