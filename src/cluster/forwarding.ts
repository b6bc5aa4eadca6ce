import { clusterNode } from "./node";

/**
 * Requests about event queues that reach a node other than the one holding the queues: each
 * user's queues live on one node (Membership.ownerOf), and a queue's ID names its node. A
 * register for someone else's user, or a GET/DELETE /events for a queue elsewhere, is passed to
 * that node and its answer passed back, so a client may talk to any node (a load balancer
 * without stickiness). A request already forwarded is served where it lands, whatever this
 * node thinks of the membership, so two nodes that briefly disagree cannot pass it back and forth.
 */

const FORWARDED = "x-parley-forwarded";

/** Resolves once this node has applied every event committed so far (at once outside a cluster). */
export const caughtUp = (): Promise<void> | undefined => clusterNode()?.caughtUp();

/** Where a register for `userId` belongs: null for here. */
export function registerTarget(request: Request, userId: number): string | null {
  const node = clusterNode();
  if (!node || request.headers.has(FORWARDED)) return null;
  const owner = node.membership.ownerOf(userId);
  return owner === node.nodeId ? null : (node.membership.urlOf(owner) ?? null);
}

/** Where the queue lives: "here", another node's URL, or "gone" (its node is not alive). */
export function queueTarget(request: Request, queueId: string): string | "here" | "gone" {
  const node = clusterNode();
  if (!node || request.headers.has(FORWARDED)) return "here";
  const colon = queueId.indexOf(":");
  const home = colon > 0 ? queueId.slice(0, colon) : node.nodeId;
  if (home === node.nodeId) return "here";
  return node.membership.urlOf(home) ?? "gone";
}

/** Sends the request on to the node at `base`, with `body` (a form) when given; null when that node cannot be reached. */
export async function forward(request: Request, base: string, body?: Record<string, unknown>): Promise<Response | null> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.set(FORWARDED, clusterNode()!.nodeId);
  headers.set("accept-encoding", "identity");
  headers.delete("content-length");
  headers.delete("host");
  let payload: string | undefined;
  if (body !== undefined) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) if (value !== undefined) form.set(name, typeof value === "string" ? value : JSON.stringify(value));
    payload = form.toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  try {
    const answer = await fetch(new URL(url.pathname + url.search, base), { method: request.method, headers, body: payload, signal: request.signal, redirect: "manual" });
    const passed = new Headers(answer.headers);
    passed.delete("content-encoding");
    passed.delete("content-length");
    passed.delete("transfer-encoding");
    return new Response(answer.body, { status: answer.status, headers: passed });
  } catch {
    return null;
  }
}
