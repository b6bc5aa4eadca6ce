import { createChannel, uniqueName } from "../helpers/channels";
import { type Org, type Person, ok } from "../helpers/seed";
import { hostileValues } from "./hostileValues";
import { type FuzzRequest, type Route, type Valid, casesFor, routeTable } from "./routeCases";

/**
 * One fuzz run over every route, shared by the fuzz test (routes.test.ts), which judges each
 * answer, and the memory benchmark (bench/loadMemory.ts), which uses it as load: the objects the
 * requests point at, the requests in the order they are sent, and how one is sent.
 */

export type FuzzRole = "member" | "guest";

export interface FuzzTargets {
  /** Per role, IDs of objects that role may act on (its own draft, its message...). */
  ids: Record<FuzzRole, Valid>;
  /** Values that pass validation for parameters whose name says what they hold. */
  valid: Valid;
}

/** A scheduled message's time that never comes during the run. */
const FAR_FUTURE = 4_000_000_000;

async function ownObjects(person: Person, channelId: number, messageId: number): Promise<Valid> {
  const draft = ok(await person.api.post("/drafts", { drafts: [{ type: "stream", to: [channelId], topic: "t", content: "draft", timestamp: 1 }] }));
  const snippet = ok(await person.api.post("/saved_snippets", { title: "s", content: "snippet" }));
  const scheduled = ok(await person.api.post("/scheduled_messages", { type: "stream", to: channelId, topic: "t", content: "later", scheduled_delivery_timestamp: FAR_FUTURE }));
  return {
    user_id: String(person.id),
    stream_id: String(channelId),
    message_id: String(messageId),
    draft_id: String(draft.ids[0]),
    saved_snippet_id: String(snippet.saved_snippet_id),
    scheduled_message_id: String(scheduled.scheduled_message_id),
  };
}

/** Makes what the requests point at in a seeded organization: a channel, a message, a linkifier, a group, each role's own objects. */
export async function prepareFuzzTargets(org: Org): Promise<FuzzTargets> {
  const channelName = uniqueName("fuzz");
  const channelId = await createChannel(org, org.owner, { principals: [org.owner.id, org.member.id, org.guest.id] }, channelName);
  const sent = ok(await org.member.api.post("/messages", { type: "stream", to: channelId, topic: "fuzz", content: "hello" }));
  const linkifier = ok(await org.admin.api.post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" }));
  const group = ok(await org.owner.api.post("/user_groups/create", { name: "fuzzers", description: "d", members: [org.member.id] }));
  const shared = { filter_id: String(linkifier.id), user_group_id: String(group.group_id), bot_id: String(org.bot.id) };
  const ids = {
    member: { ...shared, ...(await ownObjects(org.member, channelId, sent.id)) },
    guest: { ...shared, ...(await ownObjects(org.guest, channelId, sent.id)) },
  };
  const valid: Valid = {
    type: "stream",
    to: String(channelId),
    topic: "fuzz",
    topic_name: "fuzz",
    content: "fuzz",
    stream_id: String(channelId),
    anchor: "newest",
    num_before: "1",
    num_after: "0",
    narrow: "[]",
    messages: `[${sent.id}]`,
    msg_ids: `[${sent.id}]`,
    op: "add",
    flag: "starred",
    emoji_name: "smile",
    subscriptions: `["${channelName}"]`,
    queue_id: "no-such-queue",
    name: "fuzz group",
    description: "d",
    members: `[${org.member.id}]`,
    title: "t",
    token: "fuzz-token",
    pattern: "#(?P<id>[0-9]+)",
    url_template: "https://example.com/{id}",
    full_name: "Fuzz",
    short_name: "fuzz",
    username: org.member.email,
    password: "wrong password",
    drafts: "[]",
    draft: '{"type":"","to":[],"topic":"","content":"x"}',
    subscription_data: "[]",
    ordered_linkifier_ids: "[]",
    scheduled_delivery_timestamp: String(FAR_FUTURE),
  };
  return { ids, valid };
}

/** Deactivating oneself goes last, or every later request would be refused as unauthenticated. */
const ENDS_SESSION = (route: Route) => route.method === "DELETE" && route.path === "/api/v1/users/me";
const METHOD_ORDER = ["GET", "POST", "PATCH", "PUT", "DELETE"];
const ordered = (routes: Route[]) =>
  [...routes].sort((a, b) => Number(ENDS_SESSION(a)) - Number(ENDS_SESSION(b)) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method));

/**
 * Every request of one role's run, route by route. PARLEY_FUZZ_LONG's `long` sends every
 * hostile value to every parameter, with 1 MB strings. The last request deactivates the role's
 * account.
 */
export function* fuzzRequests(targets: FuzzTargets, role: FuzzRole, long: boolean): Generator<{ route: Route; request: FuzzRequest }> {
  const values = hostileValues(long);
  const turn = { next: role === "guest" ? 1 : 0 };
  for (const route of ordered(routeTable())) {
    for (const request of casesFor(route, values, targets.ids[role], targets.valid, long, turn)) yield { route, request };
  }
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

/** Sends one request as `person` (with its API key), or without credentials. */
export async function sendFuzz(serverUrl: string, person: Person | null, request: FuzzRequest): Promise<FuzzAnswer> {
  const url = new URL(request.path, serverUrl);
  const headers: Record<string, string> = {};
  if (person) headers.authorization = `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString("base64")}`;
  let body: string | undefined;
  if (request.raw) {
    body = request.raw.body;
    if (request.raw.contentType) headers["content-type"] = request.raw.contentType;
  } else if (request.method === "GET") {
    for (const [name, value] of request.fields) url.searchParams.append(name, value);
  } else {
    body = new URLSearchParams(request.fields).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  const started = performance.now();
  const response = await fetch(url, { method: request.method, headers, body });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", text, ms: performance.now() - started };
}
