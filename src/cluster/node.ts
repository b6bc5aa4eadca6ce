import { connect, headers, type NatsConnection } from "@nats-io/transport-node";
import { DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient } from "@nats-io/jetstream";
import { Kvm } from "@nats-io/kv";
import { changedElsewhere } from "../db/caches";
import { clusterIdentity, decodeBatch, eventLogAfter, type LoggedBatch, newestEventLogId, pruneEventLog } from "../db/eventLog";
import { logEventsAs, onCommit, read, writeUpkeep } from "../db/transaction";
import type { Emitted } from "../db/types";
import { publish, useQueueIdPrefix } from "../events/registry";
import { log } from "../log";
import { DuplicateNodeError, Membership, MEMBERSHIP_BUCKET, MEMBERSHIP_TTL_MS } from "./membership";
import { OrderedDelivery } from "./orderedDelivery";
import { shareLimits } from "./sharedLimits";
import { sharePresence } from "./sharedPresence";

/**
 * This process as one node of a cluster: several Parley processes on one PostgreSQL database,
 * joined by a NATS JetStream bus (PARLEY_BUS_URL). What each node does:
 *
 * - Every write transaction's events go into the event log in the same transaction
 *   (db/eventLog.ts) and, once committed, onto the bus (deduplicated by the row's ID). Every
 *   node applies the log's rows in ID order, its own included (cluster/orderedDelivery.ts):
 *   other nodes' changes drop its cached copies first, then the events go to its queues. A
 *   node that dies between a COMMIT and its publish loses nothing: the others read the row from
 *   the log when the next one shows the gap, or at the latest at the next look (CATCH_UP_MS).
 * - Membership (cluster/membership.ts): who is alive, and on which node each user's queues live.
 */

// Every name on the bus carries the cluster's identity (db/eventLog.ts clusterIdentity): two
// clusters sharing a NATS server, or a database made anew, never take each other's events.
const streamOf = (cluster: string) => `PARLEY_EVENTS_${cluster}`;
const ROW_ID = "Parley-Row";
const ROW_NODE = "Parley-Node";
const ROW_INVALIDATES = "Parley-Invalidates";
const ROW_INLINE = "Parley-Inline";
const subjectOf = (cluster: string) => `parley.${cluster}.events`;
/** A row whose events are larger than this goes on the bus without them: nodes read it from the log. */
const MAX_INLINE_CHARS = 512 * 1024;
const GAP_WAIT_MS = 50;
const CATCH_UP_MS = 1_000;
const LOG_KEPT_SECONDS = 600;
const PRUNE_EVERY_MS = 60_000;
/** How long a write waits for another node to confirm it applied the write's invalidation. */
const CONFIRM_TIMEOUT_MS = 2_000;

export interface ClusterOptions {
  busUrl: string;
  nodeId: string;
  /** Where the other nodes reach this one (forwarded requests). */
  nodeUrl: string;
  /**
   * Called when rows committed by other nodes have been applied: what they queued in the outbox
   * (mail, webhooks, pushes) is the leader's to send, and it looks at once instead of at its
   * next sweep.
   */
  committedElsewhere?: () => void;
}

export interface ClusterNode {
  membership: Membership;
  nodeId: string;
  /**
   * Resolves once this node has applied every row committed so far. A register waits for it: a
   * queue must start where its state was read, or it would get again what its state already has.
   */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

let current: ClusterNode | null = null;

/** The running node, or null for a single process. */
export const clusterNode = () => current;

export async function joinCluster(options: ClusterOptions): Promise<ClusterNode> {
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: options.busUrl, name: `parley-${options.nodeId}`, maxReconnectAttempts: -1 });
  } catch (error) {
    throw new DuplicateNodeError(`Cannot reach the bus at ${options.busUrl}: ${(error as Error).message}`);
  }
  const cluster = await read(clusterIdentity);
  const kv = await new Kvm(nc).create(`${MEMBERSHIP_BUCKET}_${cluster}`, { ttl: MEMBERSHIP_TTL_MS, history: 1 });
  const membership = new Membership(kv, options.nodeId, options.nodeUrl);
  try {
    await membership.join();
  } catch (error) {
    await nc.close();
    throw error;
  }
  const js = jetstream(nc);
  await ensureStream(nc, cluster);

  // Subscribed before the log's position is read, so nothing committed after it is missed.
  const consumer = await js.consumers.get(streamOf(cluster), { deliver_policy: DeliverPolicy.New });
  const messages = await consumer.consume();
  const delivery = new OrderedDelivery(await read(newestEventLogId), {
    fill: (after, before) => read((db) => eventLogAfter(db, after, before)),
    apply: (rows) => applyRows(rows, options.nodeId, options.committedElsewhere),
    gapWaitMs: GAP_WAIT_MS,
    failed: (error) => log.error(`Applying the event log failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  void (async () => {
    for await (const message of messages) {
      try {
        // The row's fields in headers, its events as the payload (read once, by decodeBatch).
        const id = Number(message.headers?.get(ROW_ID));
        const node = message.headers?.get(ROW_NODE) ?? "";
        if (message.headers?.get(ROW_INLINE) === "no") {
          const [full] = await read((db) => eventLogAfter(db, id - 1, id + 1));
          if (full) delivery.offer(full);
        } else delivery.offer({ id, node, invalidates: message.headers?.get(ROW_INVALIDATES) === "yes", batch: message.string() });
      } catch (error) {
        log.warn(`A bus message could not be read: ${(error as Error).message}`);
      }
    }
  })();

  const stopSharingLimits = shareLimits(nc, `parley.${cluster}.limits`, options.nodeId);
  const stopSharingPresence = sharePresence(nc, `parley.${cluster}.presence`, options.nodeId);
  useQueueIdPrefix(`${options.nodeId}:`);
  logEventsAs(options.nodeId);
  // Asked by a node that wrote something that changes what others keep cached: answers once
  // this node has applied that row (and so dropped its copies).
  const catchUpRequests = nc.subscribe(`parley.${cluster}.caught-up.${options.nodeId}`, {
    callback: (error, message) => {
      if (error) return;
      const id = Number(message.string());
      delivery.catchUpTo(id);
      void delivery.whenApplied(id).then(() => message.respond(""));
    },
  });
  onCommit((_emitted, logged) => {
    if (!logged) return;
    void publishRow(js, cluster, logged);
    // A send's events reach this node's queues in the log's order, as soon as the rows before
    // them have come (from other nodes, over the bus): the writer does not wait for that, or
    // every node's sends would queue behind the others' publishing.
    if (!logged.invalidates) return void delivery.offer(logged);
    return confirmEverywhere(logged);
  });
  // A change that may alter permissions or subscriptions holds on every node before the write
  // returns: this node applies it, then each live node is asked to confirm it has (a node that
  // does not answer in time is taken for dead; the backstop covers it should it not be).
  const confirmEverywhere = async (logged: LoggedBatch) => {
    await delivered(delivery, logged);
    const others = membership.liveNodes().filter((node) => node !== options.nodeId);
    await Promise.all(others.map((node) => nc.request(`parley.${cluster}.caught-up.${node}`, String(logged.id), { timeout: CONFIRM_TIMEOUT_MS }).catch(() => {})));
  };

  const catchUp = setInterval(() => {
    read(newestEventLogId).then(
      (newest) => delivery.catchUpTo(newest),
      () => {},
    );
  }, CATCH_UP_MS);
  catchUp.unref();
  const prune = setInterval(() => void writeUpkeep((tx) => pruneEventLog(tx, LOG_KEPT_SECONDS)).catch(() => {}), PRUNE_EVERY_MS);
  prune.unref();

  current = {
    membership,
    nodeId: options.nodeId,
    caughtUp: async () => {
      const newest = await read(newestEventLogId);
      delivery.catchUpTo(newest);
      await delivery.whenApplied(newest);
    },
    async stop() {
      clearInterval(catchUp);
      clearInterval(prune);
      catchUpRequests.unsubscribe();
      stopSharingLimits();
      stopSharingPresence();
      delivery.stop();
      logEventsAs(null);
      await membership.leave();
      await nc.drain().catch(() => {});
      current = null;
    },
  };
  return current;
}

async function ensureStream(nc: NatsConnection, cluster: string) {
  const jsm = await jetstreamManager(nc);
  const config = { name: streamOf(cluster), subjects: [subjectOf(cluster)], duplicate_window: 120 * 1e9, max_age: LOG_KEPT_SECONDS * 1e9 };
  try {
    await jsm.streams.info(config.name);
  } catch {
    await jsm.streams.add(config).catch(async (error: unknown) => {
      // Two nodes starting together: the other made it.
      await jsm.streams.info(config.name).catch(() => {
        throw error;
      });
    });
  }
}

async function publishRow(js: JetStreamClient, cluster: string, row: LoggedBatch) {
  const inline = row.batch.length <= MAX_INLINE_CHARS;
  try {
    const fields = headers();
    fields.set(ROW_ID, String(row.id));
    fields.set(ROW_NODE, row.node);
    fields.set(ROW_INVALIDATES, row.invalidates ? "yes" : "no");
    fields.set(ROW_INLINE, inline ? "yes" : "no");
    await js.publish(subjectOf(cluster), inline ? row.batch : "", { msgID: `${cluster}-${row.id}`, headers: fields });
  } catch (error) {
    // The others read it from the log (at the next gap, or the next catch-up).
    log.warn(`Publishing event log row ${row.id} failed: ${(error as Error).message}`);
  }
}

/** Resolves once this node has applied its own row: a write's events reach its queues before the write returns, as in one process. */
function delivered(delivery: OrderedDelivery, row: LoggedBatch): Promise<void> {
  delivery.offer(row);
  return delivery.whenApplied(row.id);
}

/**
 * Consecutive rows, applied together: another node's change that may alter cached state drops
 * this node's copies first; then all their events go to the queues in one delivery, in order, so
 * a long-poll is answered once for all of them (as one process answers once per transaction).
 */
async function applyRows(rows: LoggedBatch[], self: string, committedElsewhere?: () => void) {
  if (rows.some((row) => row.node !== self && row.invalidates)) changedElsewhere();
  if (committedElsewhere && rows.some((row) => row.node !== self)) committedElsewhere();
  const batch: Emitted[] = rows.flatMap((row) => decodeBatch(row.batch));
  if (batch.length > 0) await publish(batch);
}
