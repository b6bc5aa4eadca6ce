import type { NatsConnection } from "@nats-io/transport-node";
import { onPresenceChange, putPresenceFromElsewhere } from "../db/presenceStore";

/**
 * Presence across nodes: reports reach the node holding the user's queues (register's node,
 * cluster/forwarding.ts), which keeps them and tells the other nodes, so that each lists
 * everyone as present as they are. A change lost on the way (a node away) is made good by the
 * next report, a minute later at most.
 */


export function sharePresence(nc: NatsConnection, subject: string, nodeId: string): () => void {
  onPresenceChange((userId, times) => nc.publish(subject, JSON.stringify({ node: nodeId, userId, ...times })));
  const subscription = nc.subscribe(subject, {
    callback: (error, message) => {
      if (error) return;
      const { node, userId, activeTime, connectedTime } = message.json<{ node: string; userId: number; activeTime: number; connectedTime: number }>();
      if (node !== nodeId) putPresenceFromElsewhere(userId, { activeTime, connectedTime });
    },
  });
  return () => {
    onPresenceChange(null);
    subscription.unsubscribe();
  };
}
