/**
 * The legacy form of a user's muted topics (reference: get-events, type "muted_topics"): the
 * whole list, [channel name, topic, muted at] each, for clients that did not ask for the
 * user_topic events that replaced it.
 */
export interface MutedTopicsEvent {
  type: "muted_topics";
  muted_topics: Array<[string, string, number]>;
}
