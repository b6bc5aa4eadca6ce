import { Elysia, t } from "elysia";
import { authenticate, authentication } from "../http/auth";
import { checkedCredentials, limitRegistration } from "../http/requestLimits";
import { authenticateSession, sessionTokenOf } from "../http/session";
import { success } from "../http/errors";
import { register, spectatorsAllowed } from "../events/register";
import { eventsAnswer } from "../events/answer";
import { acceptsGzip } from "../http/gzipSplice";
import { badQueue, deleteQueue, fetchEvents } from "../events/registry";
import { ignoredParameters } from "../http/conventions";
import { caughtUp, forward, queueTarget, registerTarget } from "../cluster/forwarding";


const EventTypes = t.ArrayString(t.String({ maxLength: 100 }), { maxItems: 500 });

const RegisterParams = t.Object({
  apply_markdown: t.Optional(t.BooleanString()),
  client_gravatar: t.Optional(t.BooleanString()),
  include_subscribers: t.Optional(t.BooleanString()),
  slim_presence: t.Optional(t.BooleanString()),
  presence_history_limit_days: t.Optional(t.Numeric({ minimum: 0, maximum: 100_000, multipleOf: 1 })),
  event_types: t.Optional(EventTypes),
  fetch_event_types: t.Optional(EventTypes),
  all_public_streams: t.Optional(t.BooleanString()),
  narrow: t.Optional(t.ArrayString(t.Array(t.String({ maxLength: 1000 }), { minItems: 2, maxItems: 2 }), { maxItems: 50 })),
  client_capabilities: t.Optional(t.ObjectString({}, { additionalProperties: t.Boolean(), maxProperties: 50 })),
  // Seconds or "mobile": checked by register, which names the parameter in its error.
  idle_queue_timeout: t.Optional(t.String({ maxLength: 20 })),
});

// Answers vary by Accept-Encoding, gzipped or not (see eventsAnswer), and say so to caches.
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", vary: "Accept-Encoding" };
const GZIP_JSON_HEADERS = { ...JSON_HEADERS, "content-encoding": "gzip" };

const QueueId = t.String({ minLength: 1, maxLength: 100 });

/**
 * Whoever sends credentials must have good ones; without any, register is open only when the
 * organization allows public access (spec 5.2), and otherwise refused as unauthenticated.
 */
async function callerOrSpectator(request: Request) {
  const authorization = request.headers.get("authorization") ?? undefined;
  // Our own pages register with the browser session (the admin console reads the realm section).
  const sessionToken = authorization === undefined ? sessionTokenOf(request) : undefined;
  if (sessionToken !== undefined) return await authenticateSession(request, sessionToken);
  if (authorization === undefined && (await spectatorsAllowed())) return null;
  return await authenticate(authorization);
}

export const eventQueueRoutes = new Elysia()
  .use(authentication)
  .post(
    "/register",
    async ({ request, server, set, body }) => {
      const context = { request, server, set };
      const caller = await checkedCredentials(context, () => callerOrSpectator(request));
      limitRegistration(context, caller);
      const home = caller ? registerTarget(request, caller.id) : null;
      if (home) {
        const answer = await forward(request, home, body);
        if (answer) return answer;
        // That node is going away: serve here; the client's queue lives here until it re-registers.
      }
      await caughtUp();
      return success(await register(caller, body));
    },
    { body: RegisterParams },
  )
  .get(
    "/events",
    async ({ user, query, request }) => {
      const home = queueTarget(request, query.queue_id);
      if (home !== "here") {
        const answer = home === "gone" ? null : await forward(request, home);
        if (answer) return answer;
        throw badQueue(query.queue_id);
      }
      const events = await fetchEvents(query.queue_id, user.id, { lastEventId: query.last_event_id, dontBlock: query.dont_block ?? false, signal: request.signal });
      const ignored = ignoredParameters(request, query);
      const extra = ignored.length > 0 ? { queue_id: query.queue_id, ignored_parameters_unsupported: ignored } : { queue_id: query.queue_id };
      const answer = eventsAnswer(events, extra, acceptsGzip(request.headers.get("accept-encoding")));
      return new Response(answer, { headers: typeof answer === "string" ? JSON_HEADERS : GZIP_JSON_HEADERS });
    },
    {
      auth: true,
      query: t.Object({ queue_id: QueueId, last_event_id: t.Optional(t.Numeric({ minimum: -1, multipleOf: 1 })), dont_block: t.Optional(t.BooleanString()) }),
    },
  )
  .delete(
    "/events",
    async ({ user, body, request }) => {
      const home = queueTarget(request, body.queue_id);
      if (home !== "here") {
        const answer = home === "gone" ? null : await forward(request, home, body);
        if (answer) return answer;
        throw badQueue(body.queue_id);
      }
      deleteQueue(body.queue_id, user.id);
      return success();
    },
    { auth: true, body: t.Object({ queue_id: QueueId }) },
  );
