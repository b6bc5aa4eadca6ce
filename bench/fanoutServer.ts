/**
 * The bare fan-out server of bench:events (bench/events.ts starts it as a process of its own):
 * the least a server can do for long-polling clients. It holds every GET it gets open, and when
 * a POST arrives answers all of them at once with one event carrying the POSTed content, in the
 * shape of an answer to GET /api/v1/events (one message event, its ID last), then answers the
 * POST. No accounts, no storage, no queues: what the benchmark's clients measure against it is
 * their own floor, the time the client and the kernel take to deliver to N sockets.
 *
 *   bun bench/fanoutServer.ts      prints its URL, then serves until stopped
 */

let eventId = -1;
let parked: Array<(answer: Response) => void> = [];

/** A message event of about the size of Parley's for the same content. */
function answerBody(content: string): string {
  eventId++;
  const message = {
    id: 1000 + eventId,
    sender_id: 1,
    content: `<p>${content}</p>`,
    recipient_id: 1,
    timestamp: Math.floor(Date.now() / 1000),
    client: "website",
    subject: "bench",
    topic_links: [],
    is_me_message: false,
    reactions: [],
    submessages: [],
    sender_full_name: "Owner of the bench",
    sender_email: "owner@bench.example",
    sender_realm_str: "bench",
    display_recipient: "bench",
    type: "stream",
    stream_id: 1,
    avatar_url: null,
    content_type: "text/html",
  };
  return JSON.stringify({ result: "success", msg: "", events: [{ type: "message", message, flags: [], id: eventId }], queue_id: "bare" });
}

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  // Long-polls are held until the next POST, however long that takes.
  idleTimeout: 0,
  async fetch(request) {
    if (request.method === "GET") return new Promise<Response>((resolve) => parked.push(resolve));
    const form = await request.formData();
    const body = answerBody(String(form.get("content")));
    const waiting = parked;
    parked = [];
    for (const resolve of waiting) resolve(new Response(body, { headers: { "content-type": "application/json" } }));
    return Response.json({ result: "success", msg: "", id: eventId, answered: waiting.length });
  },
});
console.log(server.url.href);
