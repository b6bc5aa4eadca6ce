/**
 * A client process of bench:events (bench/events.ts starts several and hands each a share of
 * the queues): it long-polls GET /api/v1/events on each queue it is given, over one raw
 * keep-alive socket per queue, and reports when each answer carrying a benchmark message began
 * to arrive.
 *
 * It is kept cheap, because the latency it measures is only as good as its own floor: raw
 * sockets rather than fetch (thousands of fetch clients in one process cost more CPU than the
 * server), no JSON parsing (the marker is found with indexOf, the last event ID read from the
 * answer's end), and arrivals stamped as each socket's first bytes come in, before any of the
 * answers that arrived together are read and polled again.
 *
 * Messages from the coordinator (Bun IPC):
 *   { type: "add", target, url, polls: [{ queueId, authorization }] }  opens and polls them
 * and to it:
 *   { type: "added", target }
 *   { type: "round", target, round, arrivals, bytes }  once every poll of `target` got the
 *       answer carrying message `benchround<round>x`: when each began to arrive (ms, on the
 *       clock performance.timeOrigin + performance.now(), shared by processes) and its size
 */
import type { Socket } from "bun";

export interface Poll {
  queueId: string;
  authorization: string;
}

export type ToPollers = { type: "add"; target: string; url: string; polls: Poll[] };
export type FromPollers = { type: "added"; target: string } | { type: "round"; target: string; round: number; arrivals: number[]; bytes: number };

export const MARKER = "benchround";

const report = (message: FromPollers) => process.send!(message);
const now = () => performance.timeOrigin + performance.now();

interface Target {
  name: string;
  polls: number;
  /** Per round: when each answer began to arrive, and the bytes of all of them. */
  rounds: Map<number, { arrivals: number[]; bytes: number }>;
}
const targets = new Map<string, Target>();

interface Connection {
  target: Target;
  request: (lastEventId: number) => string;
  socket: Socket<undefined>;
  buffer: string;
  arrivedAt: number;
}

/** Connections with bytes not yet read; all read together once this turn's arrivals are stamped. */
let pending = new Set<Connection>();

function readPending() {
  const ready = pending;
  pending = new Set();
  for (const connection of ready) read(connection);
}

function received(connection: Connection, chunk: Buffer) {
  if (connection.buffer === "") connection.arrivedAt = now();
  connection.buffer += chunk.toString("latin1");
  if (pending.size === 0) setImmediate(readPending);
  pending.add(connection);
}

function read(connection: Connection) {
  const { buffer } = connection;
  const headerEnd = buffer.indexOf("\r\n\r\n");
  if (headerEnd < 0) return;
  const head = buffer.slice(0, headerEnd);
  const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
  if (Number.isNaN(length)) throw new Error(`an answer without Content-Length: ${head}`);
  if (buffer.length < headerEnd + 4 + length) return;
  const body = buffer.slice(headerEnd + 4, headerEnd + 4 + length);
  connection.buffer = buffer.slice(headerEnd + 4 + length);
  if (!head.startsWith("HTTP/1.1 200")) throw new Error(`GET /events failed: ${head}\n${body.slice(0, 300)}`);
  // Each event's own ID is its last field: `..., "id": N}` closes the list.
  const end = body.lastIndexOf('}],"queue_id"');
  const lastEventId = end > 0 ? Number(body.slice(body.lastIndexOf('"id":', end) + 5, end)) : -1;
  connection.socket.write(connection.request(lastEventId));
  const marker = body.indexOf(MARKER);
  // Anything else (a heartbeat) is polled again and not counted.
  if (marker < 0) return;
  const round = Number(body.slice(marker + MARKER.length, body.indexOf("x", marker)));
  const target = connection.target;
  let seen = target.rounds.get(round);
  if (!seen) target.rounds.set(round, (seen = { arrivals: [], bytes: 0 }));
  seen.arrivals.push(connection.arrivedAt);
  seen.bytes += length;
  if (seen.arrivals.length === target.polls) {
    target.rounds.delete(round);
    report({ type: "round", target: target.name, round, arrivals: seen.arrivals, bytes: seen.bytes });
  }
}

async function open(target: Target, url: URL, poll: Poll) {
  const request = (lastEventId: number) =>
    `GET /api/v1/events?queue_id=${poll.queueId}&last_event_id=${lastEventId} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${poll.authorization}\r\n\r\n`;
  const connection = { target, request, buffer: "", arrivedAt: 0 } as Connection;
  connection.socket = await Bun.connect({
    hostname: url.hostname,
    port: Number(url.port),
    socket: {
      data: (_socket, chunk) => received(connection, chunk),
      close: () => {
        if (stopping) return;
        console.error(`the server closed a long-poll of queue ${poll.queueId}`);
        process.exit(1);
      },
    },
  });
  connection.socket.write(request(-1));
}

let stopping = false;
process.on("message", async (message: ToPollers) => {
  if (message.type !== "add") return;
  let target = targets.get(message.target);
  if (!target) targets.set(message.target, (target = { name: message.target, polls: 0, rounds: new Map() }));
  target.polls += message.polls.length;
  const url = new URL(message.url);
  for (let start = 0; start < message.polls.length; start += 100) await Promise.all(message.polls.slice(start, start + 100).map((poll) => open(target, url, poll)));
  report({ type: "added", target: message.target });
});
process.on("SIGTERM", () => {
  stopping = true;
  process.exit(0);
});
