import type { NatsConnection } from "@nats-io/transport-node";
import { countedElsewhere, type LimitNote, tellLimitsTo } from "../http/sharedLimits";

/**
 * Carries what each node counts against rate limits and sign-in lockouts to the others
 * (http/sharedLimits.ts), over the bus's plain publish/subscribe: counts lost while a node is
 * away cost at most one window's worth. Requests' spending is summed per limit and key and sent
 * every FLUSH_MS (a message per request would cost more than the limit is worth); failures and
 * successes of sign-ins go at once, since a guesser moving to another node must find them there.
 */

const FLUSH_MS = 50;

export function shareLimits(nc: NatsConnection, subject: string, nodeId: string): () => void {
  const spent = new Map<string, Extract<LimitNote, { kind: "spent" }>>();
  const send = (notes: LimitNote[]) => nc.publish(subject, JSON.stringify({ node: nodeId, notes }));
  tellLimitsTo((note) => {
    if (note.kind !== "spent") return send([note]);
    const key = `${note.limit}\u0000${typeof note.key}\u0000${note.key}`;
    const summed = spent.get(key);
    if (summed) summed.cost += note.cost;
    else spent.set(key, { ...note });
  });
  const timer = setInterval(() => {
    if (spent.size === 0) return;
    const notes = [...spent.values()];
    spent.clear();
    send(notes);
  }, FLUSH_MS);
  timer.unref();
  const subscription = nc.subscribe(subject, {
    callback: (error, message) => {
      if (error) return;
      const { node, notes } = message.json<{ node: string; notes: LimitNote[] }>();
      if (node === nodeId) return;
      for (const note of notes) countedElsewhere(note);
    },
  });
  return () => {
    tellLimitsTo(null);
    clearInterval(timer);
    subscription.unsubscribe();
  };
}
