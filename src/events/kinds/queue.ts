/** Events the registry itself puts in a queue; actions never emit these. */

export interface HeartbeatEvent {
  type: "heartbeat";
}

/** Appended to every queue that survived a graceful restart (reference shape, both spellings). */
export interface RestartEvent {
  type: "restart";
  svc_version: string;
  svc_feature_level: number;
  svc_merge_base: string;
  zulip_version: string;
  zulip_feature_level: number;
  zulip_merge_base: string;
  server_generation: number;
}

export type QueueEvent = HeartbeatEvent | RestartEvent;
