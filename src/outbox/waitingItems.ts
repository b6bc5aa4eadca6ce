import type { OutboxKind, Route } from "./deliverers";

/**
 * The outbox items the sender knows are waiting, by lane, so a pass looks at each lane's next
 * items rather than at every item: a dead destination with thousands queued costs a pass no
 * more than one with a few. Within a lane, items with an order key form one queue per key
 * (only its first item due may go), the others one queue of their own; all in ID order.
 */

export interface WaitingItem {
  id: number;
  kind: OutboxKind;
  route: Route;
  /** UNIX seconds, as stored. */
  nextAttemptAt: number;
}

interface LaneItems {
  limit: number;
  /** Items with an order key, a queue per key. */
  ordered: Map<string, Map<number, WaitingItem>>;
  /** Items without one. */
  unordered: Map<number, WaitingItem>;
}

export class WaitingItems {
  private readonly byLane = new Map<string, LaneItems>();

  /** Adds an item; items are added in increasing ID order. */
  add(item: WaitingItem) {
    const { lane, limit, inOrder } = item.route;
    let items = this.byLane.get(lane);
    if (!items) this.byLane.set(lane, (items = { limit, ordered: new Map(), unordered: new Map() }));
    items.limit = limit;
    if (inOrder === undefined) return void items.unordered.set(item.id, item);
    let queue = items.ordered.get(inOrder);
    if (!queue) items.ordered.set(inOrder, (queue = new Map()));
    queue.set(item.id, item);
  }

  remove(item: WaitingItem) {
    const { lane, inOrder } = item.route;
    const items = this.byLane.get(lane);
    if (!items) return;
    if (inOrder === undefined) items.unordered.delete(item.id);
    else {
      const queue = items.ordered.get(inOrder);
      queue?.delete(item.id);
      if (queue?.size === 0) items.ordered.delete(inOrder);
    }
    if (items.ordered.size === 0 && items.unordered.size === 0) this.byLane.delete(lane);
  }

  /** The lanes with items waiting, with their bounds. */
  *lanes(): Iterable<{ lane: string; limit: number }> {
    for (const [lane, items] of this.byLane) yield { lane, limit: items.limit };
  }

  /**
   * The items of `lane` that may start now, in ID order, at most `room` of those without an
   * order key: `ready` says whether an item is due, `underWay` whether it has started. Of an
   * order key's queue only the first item that is due may go, and none while one is under way;
   * an item waiting for its retry does not hold up the items after it.
   */
  startable(lane: string, room: number, ready: (item: WaitingItem) => boolean, underWay: (item: WaitingItem) => boolean): WaitingItem[] {
    const items = this.byLane.get(lane);
    if (!items) return [];
    const found: WaitingItem[] = [];
    for (const queue of items.ordered.values()) {
      for (const item of queue.values()) {
        if (underWay(item)) break;
        if (!ready(item)) continue;
        found.push(item);
        break;
      }
    }
    let unordered = 0;
    for (const item of items.unordered.values()) {
      if (unordered >= room) break;
      if (underWay(item) || !ready(item)) continue;
      found.push(item);
      unordered++;
    }
    return found.sort((a, b) => a.id - b.id);
  }
}
