import { join } from "node:path";
import type { Subprocess } from "bun";
import type { Person } from "../helpers/seed";

/**
 * The second client of the stall test (watch.ts, in its own process): GET /users/me, one
 * request after another. What a case cost everyone else is the longest of these that was
 * under way while it ran. Times are wall-clock milliseconds (`Watcher.clock()`).
 */
export class Watcher {
  private spans: Array<{ start: number; end: number }> = [];
  private readonly child: Subprocess<"ignore", "pipe", "inherit">;

  static clock = () => performance.timeOrigin + performance.now();

  constructor(url: string, person: Person) {
    this.child = Bun.spawn([process.execPath, join(import.meta.dir, "watch.ts"), url, person.email, person.apiKey], { stdout: "pipe", stderr: "inherit" });
    void this.read();
  }

  private async read() {
    let pending = "";
    for await (const chunk of this.child.stdout.pipeThrough(new TextDecoderStream())) {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        const [start, end] = line.split(" ").map(Number);
        this.spans.push({ start, end });
      }
      // Only the recent past is ever asked about.
      if (this.spans.length > 20_000) this.spans.splice(0, 10_000);
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
    while (!this.spans.some((span) => span.start >= moment)) {
      if (this.child.exitCode !== null) throw new Error("The watching client stopped");
      await Bun.sleep(2);
    }
  }

  get pid(): number {
    return this.child.pid;
  }

  async stop() {
    this.child.kill();
    await this.child.exited;
  }
}
