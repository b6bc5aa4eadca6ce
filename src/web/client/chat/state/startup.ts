import { batch } from "@preact/signals";
import type { Snapshot } from "../model/types";
import { connect } from "./connection";
import { settleStored } from "./echo";
import { applyEvents, dropHeldEvents } from "./events";
import { refetchAll } from "./messages";
import { currentList, followUrl } from "./place";
import { forgetTopics } from "./topics";
import { loadSnapshot } from "./store";
import { loadUnreads } from "./unreads";

/**
 * Starts the chat's state: the first snapshot fills the stores and opens the URL's narrow; a
 * later one (after a lost queue) replaces the stores in one step and fetches the shown list
 * again, keeping what is on screen until the fresh list lands, so nothing flashes empty.
 */

export function startChatState(onReady: () => void) {
  connect({
    onSnapshot(snapshot: Snapshot, first: boolean) {
      batch(() => {
        dropHeldEvents();
        loadSnapshot(snapshot);
        loadUnreads(snapshot.unread_msgs, snapshot.user_id);
        if (!first) forgetTopics();
      });
      if (first) {
        followUrl();
        onReady();
      } else {
        void refetchAll(currentList.value).then(settleStored);
      }
    },
    onEvents: applyEvents,
  });
}
