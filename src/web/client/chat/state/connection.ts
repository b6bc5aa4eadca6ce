import { signal } from "@preact/signals";
import { api, ApiFailure, csrfToken } from "../../ui/api";
import type { ServerEvent, Snapshot } from "../model/types";

/**
 * The chat's line to the server: POST /register, then GET /events in a loop. When the queue is
 * gone (it idled out, or the server lost it) the client registers again and hands over a whole
 * new snapshot in one step. Every request carries the generation it belongs to; answers from
 * an older generation are dropped, so a slow reply from a dead queue cannot mix into a new one.
 * While the server is away the loop backs off with jitter and says so through `connection`.
 */

export type ConnectionStatus = "starting" | "live" | "reconnecting" | "resyncing";

export const connection = signal<{ status: ConnectionStatus; failures: number; message?: string }>({ status: "starting", failures: 0 });

export interface ConnectionHandlers {
  /** A snapshot to start from: the first, or a new one after the queue was lost. */
  onSnapshot(snapshot: Snapshot, first: boolean): void | Promise<void>;
  /** A batch of events, in order. */
  onEvents(events: ServerEvent[]): void;
}

/** The sections the chat reads from the snapshot; every event type is still delivered. */
const FETCH_EVENT_TYPES = [
  "message",
  "subscription",
  "realm_user",
  "realm",
  "update_message_flags",
  "user_settings",
  "realm_emoji",
  "recent_private_conversations",
  "muted_users",
  "user_topic",
  "presence",
  "user_status",
];

const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  empty_topic_name: true,
  archived_channels: true,
};

/** Failures in a row before the banner shows: one blip is not worth a banner. */
const BANNER_AFTER = 2;

let generation = 0;
let queueId = "";
let lastEventId = -1;
let handlers: ConnectionHandlers;
let wake: (() => void) | null = null;
let polling: AbortController | null = null;

export const currentQueueId = () => queueId;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      wake = null;
      resolve();
    }
    wake = done;
  });

/** 0.5 s, 1 s, 2 s … up to 10 s, each with up to half again of jitter. */
const backoff = (failures: number) => Math.min(500 * 2 ** (failures - 1), 10_000) * (1 + Math.random() / 2);

function failed(failures: number, error: unknown) {
  const offline = !navigator.onLine;
  const message = offline ? "This device is offline." : error instanceof ApiFailure ? error.message : String(error);
  // The browser knowing it is offline needs no second failure to be sure.
  if (failures >= BANNER_AFTER || offline) connection.value = { status: connection.value.status === "resyncing" ? "resyncing" : "reconnecting", failures, message };
}

async function register(): Promise<Snapshot> {
  return api<Snapshot>("POST", "/register", {
    fetch_event_types: FETCH_EVENT_TYPES,
    client_capabilities: CLIENT_CAPABILITIES,
    apply_markdown: true,
    client_gravatar: false,
    slim_presence: true,
    include_subscribers: false,
  });
}

/** Registers until it works (the server may be starting), then hands the snapshot over. */
async function start(first: boolean) {
  const mine = ++generation;
  polling?.abort();
  let failures = 0;
  for (;;) {
    try {
      const snapshot = await register();
      if (mine !== generation) return;
      queueId = snapshot.queue_id;
      lastEventId = snapshot.last_event_id;
      await handlers.onSnapshot(snapshot, first);
      if (mine !== generation) return;
      connection.value = { status: "live", failures: 0 };
      void poll(mine);
      return;
    } catch (error) {
      if (mine !== generation) return;
      failed(++failures, error);
      if (first && failures === 1) connection.value = { status: "starting", failures, message: (error as Error).message };
      await sleep(backoff(failures));
    }
  }
}

async function poll(mine: number) {
  let failures = 0;
  while (mine === generation) {
    polling = new AbortController();
    try {
      const reply = await api<{ events: ServerEvent[] }>("GET", "/events", { queue_id: queueId, last_event_id: lastEventId }, { signal: polling.signal });
      if (mine !== generation) return;
      if (failures > 0 || connection.value.status !== "live") connection.value = { status: "live", failures: 0 };
      failures = 0;
      const events = reply.events.filter((event) => event.id > lastEventId);
      if (events.length) lastEventId = events[events.length - 1].id;
      const meaningful = events.filter((event) => event.type !== "heartbeat");
      if (meaningful.length) handlers.onEvents(meaningful);
    } catch (error) {
      if (mine !== generation) return;
      if (error instanceof ApiFailure && error.code === "BAD_EVENT_QUEUE_ID") {
        connection.value = { status: "resyncing", failures: 0 };
        void start(false);
        return;
      }
      failed(++failures, error);
      await sleep(backoff(failures));
    }
  }
}

/** Starts the chat's connection; call once. */
export function connect(given: ConnectionHandlers) {
  handlers = given;
  void start(true);
  // Back from sleep or offline: try now instead of at the end of the backoff.
  const now = () => wake?.();
  addEventListener("online", now);
  // A long-poll may hang on a dead network: give it up, and say so, the moment the browser knows.
  addEventListener("offline", () => polling?.abort());
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && now());
  // A closing tab gives its queue back instead of leaving it to idle out.
  addEventListener("pagehide", () => {
    if (!queueId) return;
    const body = new URLSearchParams({ queue_id: queueId });
    void fetch("/api/v1/events", { method: "DELETE", body, keepalive: true, credentials: "same-origin", headers: { "x-csrf-token": csrfToken() } }).catch(() => undefined);
  });
}
