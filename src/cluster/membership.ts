import type { KV } from "@nats-io/kv";

/**
 * Which nodes are alive, kept in a JetStream key-value bucket: each node writes its key (its
 * PARLEY_NODE_ID, with the URL the others reach it at) every HEARTBEAT_MS, and the bucket forgets
 * a key not written for TTL_MS. A node starting under a name that was written within
 * TAKEN_WITHIN_MS is refused: another node runs under it. One that stopped writing longer ago
 * (killed, say) may be taken over at once.
 */
export const HEARTBEAT_MS = 2_000;
const TTL_MS = 10_000;
const TAKEN_WITHIN_MS = 3 * HEARTBEAT_MS;

export const MEMBERSHIP_BUCKET = "parley_nodes";
export const MEMBERSHIP_TTL_MS = TTL_MS;

interface NodeEntry {
  url: string;
  /** Date.now() when written. */
  at: number;
}

export class DuplicateNodeError extends Error {}

export class Membership {
  private readonly live = new Map<string, NodeEntry>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private watching: { stop(): void } | null = null;

  constructor(
    private readonly kv: KV,
    readonly nodeId: string,
    readonly url: string,
  ) {}

  /** Claims the node's name (refused when another node holds it), then keeps it and watches the others. */
  async join() {
    const existing = await this.kv.get(this.nodeId);
    if (existing && existing.operation === "PUT") {
      const entry = existing.json<NodeEntry>();
      if (Date.now() - entry.at < TAKEN_WITHIN_MS) {
        throw new DuplicateNodeError(`Another node runs as '${this.nodeId}' (at ${entry.url}, seen ${Math.round((Date.now() - entry.at) / 1000)} s ago): give each node its own PARLEY_NODE_ID.`);
      }
    }
    await this.beat();
    for await (const key of await this.kv.keys()) {
      const entry = await this.kv.get(key);
      if (entry?.operation === "PUT") this.note(key, entry.json<NodeEntry>());
    }
    const watch = await this.kv.watch({ include: "updates" as never });
    this.watching = watch;
    void (async () => {
      for await (const change of watch) {
        if (change.operation === "PUT") this.note(change.key, change.json<NodeEntry>());
        else this.live.delete(change.key);
      }
    })().catch(() => {});
    this.timer = setInterval(() => void this.beat().catch(() => {}), HEARTBEAT_MS);
    this.timer.unref();
  }

  private note(key: string, entry: NodeEntry) {
    this.live.set(key, entry);
  }

  private async beat() {
    const entry = { url: this.url, at: Date.now() };
    await this.kv.put(this.nodeId, JSON.stringify(entry));
    this.note(this.nodeId, entry);
  }

  /** Nodes seen alive: written within the TTL. */
  liveNodes(): string[] {
    const now = Date.now();
    return [...this.live].filter(([, entry]) => now - entry.at < TTL_MS).map(([id]) => id).sort();
  }

  urlOf(nodeId: string): string | undefined {
    const entry = this.live.get(nodeId);
    return entry && Date.now() - entry.at < TTL_MS ? entry.url : undefined;
  }

  /** The node a user's queues live on: rendezvous (highest random weight) hashing over the live nodes. */
  ownerOf(userId: number): string {
    let best = this.nodeId;
    let bestWeight = -1n;
    for (const node of this.liveNodes()) {
      const weight = BigInt(Bun.hash.wyhash(`${node}\u0000${userId}`));
      if (weight > bestWeight) {
        best = node;
        bestWeight = weight;
      }
    }
    return best;
  }

  async leave() {
    if (this.timer) clearInterval(this.timer);
    this.watching?.stop();
    await this.kv.delete(this.nodeId).catch(() => {});
  }
}
