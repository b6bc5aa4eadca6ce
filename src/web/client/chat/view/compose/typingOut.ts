import { api } from "../../../ui/api";
import type { Destination } from "../../state/echo";
import { me, realm, userSettings } from "../../state/store";

/**
 * Telling the others that the person is typing (POST /typing, reference `set-typing-status`):
 * "start" when typing begins and again every typingStartedWaitMs while it goes on (the server
 * lets a start expire), "stop" after typingStoppedWaitMs without a keystroke, and at once on
 * send, on emptying the box, on writing somewhere else and on leaving the box. The person's
 * settings to send none are honoured here, before any request; notes to self tell no one.
 */

export type TypingParams = { type: "direct"; to: number[] } | { type: "stream"; stream_id: number; topic: string };

export interface TypingRules {
  startedWaitMs: number;
  stoppedWaitMs: number;
  sendDirect: boolean;
  sendStream: boolean;
  myId: number;
  /** A topic the server would refuse (none where topics are required, one too long) gets no notice either. */
  topicsRequired: boolean;
  maxTopicLength: number;
}

export function typingParams(destination: Destination, rules: Omit<TypingRules, "startedWaitMs" | "stoppedWaitMs">): TypingParams | null {
  if (destination.type === "stream") {
    const refused = (destination.topic === "" && rules.topicsRequired) || [...destination.topic].length > rules.maxTopicLength;
    return rules.sendStream && !refused ? { type: "stream", stream_id: destination.channelId, topic: destination.topic } : null;
  }
  const others = destination.userIds.filter((id) => id !== rules.myId);
  return rules.sendDirect && others.length ? { type: "direct", to: destination.userIds } : null;
}

export interface TypingOut {
  /** A keystroke that leaves text in the box aimed at `destination`. */
  typed(destination: Destination | null): void;
  /** Typing ended (sent, emptied, elsewhere, left): "stop" if a "start" is out. */
  stop(): void;
}

interface Deps {
  post: (op: "start" | "stop", params: TypingParams) => void;
  rules: () => TypingRules;
  now?: () => number;
}

export function createTypingOut({ post, rules, now = Date.now }: Deps): TypingOut {
  let started: { key: string; params: TypingParams; at: number } | null = null;
  let stopTimer: ReturnType<typeof setTimeout> | undefined;

  function stop() {
    clearTimeout(stopTimer);
    stopTimer = undefined;
    if (!started) return;
    post("stop", started.params);
    started = null;
  }

  function typed(destination: Destination | null) {
    const current = rules();
    const params = destination && typingParams(destination, current);
    if (!params) return stop();
    const key = JSON.stringify(params);
    if (started && started.key !== key) stop();
    const time = now();
    if (!started || time - started.at >= current.startedWaitMs) {
      post("start", params);
      started = { key, params, at: time };
    }
    clearTimeout(stopTimer);
    stopTimer = setTimeout(stop, current.stoppedWaitMs);
  }

  return { typed, stop };
}

/** The compose box's notifier, with the organization's periods and the person's settings. */
export const typingOut = createTypingOut({
  post: (op, params) => void api("POST", "/typing", { op, ...params }).catch(() => {}),
  rules: () => ({
    startedWaitMs: realm.value.typingStartedWaitMs ?? 10_000,
    stoppedWaitMs: realm.value.typingStoppedWaitMs ?? 5_000,
    sendDirect: userSettings.value.send_private_typing_notifications !== false,
    sendStream: userSettings.value.send_stream_typing_notifications !== false,
    myId: me.value.userId,
    topicsRequired: realm.value.mandatoryTopics,
    maxTopicLength: realm.value.maxTopicLength ?? Infinity,
  }),
});
