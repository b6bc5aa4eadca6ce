import { useSignalEffect } from "@preact/signals";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { Button } from "../../../ui/components";
import type { Narrow } from "../../model/narrow";
import type { Message } from "../../model/types";
import { pending } from "../../state/echo";
import { loadInitial, messages, messagesVersion, type NarrowList } from "../../state/messages";
import { me, userSettings } from "../../state/store";
import { unreads } from "../../state/unreads";
import { dmTitle, narrowTitle } from "../narrowTitle";
import { ActionsMenuHost } from "./ActionsMenu";
import { DeleteDialogHost } from "./DeleteDialog";
import { DayDivider, RecipientHeader } from "./dividers";
import { editingId } from "./editing";
import { isConversationView, mixesConversations, planRows } from "./grouping";
import { announceFor, announcement } from "./liveRegion";
import { MessageRow } from "./MessageRow";
import { pendingIn } from "./pendingRows";
import { PendingRow } from "./PendingRow";
import { ReactionPickerHost } from "./ReactionPicker";
import { createReadTracker, type ReadTracker } from "./readTracker";
import { useScrolling } from "./scrolling";
import { selectedId } from "./selection";

/**
 * The messages of one narrow: its own scroll container (a feed of articles) that fills the
 * space it is given. It draws only the loaded window of the list (the state layer caps it),
 * grouped by day, conversation and sender; scrolling is scrolling.ts's, reading is
 * readTracker.ts's. Switching narrows passes another list and the view follows.
 */

/** web_mark_read_on_scroll_policy: 1 always, 2 only in conversation views, 3 never. */
function marksReadOnScroll(narrow: Narrow): boolean {
  const policy = Number(userSettings.value.web_mark_read_on_scroll_policy ?? 1);
  return policy === 1 || (policy === 2 && isConversationView(narrow));
}

function beginningOf(narrow: Narrow): string {
  if (narrow.kind === "dm") return narrow.userIds.length === 1 && narrow.userIds[0] === me.value.userId ? "This is the beginning of your notes to self." : `This is the beginning of your conversation with ${dmTitle(narrow.userIds)}.`;
  return `This is the beginning of ${narrowTitle(narrow)}.`;
}

function LiveRegion() {
  return (
    <div class="sr-only" aria-live="polite" aria-atomic="true">
      {announcement.value}
    </div>
  );
}

function Skeleton() {
  return (
    <div class="msg-skeleton" role="status">
      <span class="sr-only">Loading messages…</span>
      {[0, 1, 2, 3, 4].map((index) => (
        <div key={index} class="skeleton-row" aria-hidden="true">
          <span class="skeleton-avatar" />
          <span class="skeleton-lines">
            <span />
            <span />
          </span>
        </div>
      ))}
    </div>
  );
}

export function MessageView({ list }: { list: NarrowList }) {
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const tracker = useRef<ReadTracker | null>(null);
  const listRef = useRef(list);
  listRef.current = list;

  messagesVersion.value;
  const ids = list.ids.value;
  const loading = list.loading.value;
  const error = list.error.value;
  const myId = me.value.userId;
  const unread = unreads.value;
  const editing = editingId.value;
  const selected = selectedId.value;

  const shown: Message[] = [];
  for (const id of ids) {
    const message = messages.get(id);
    if (message) shown.push(message);
  }
  const waiting = pendingIn(list.narrow, pending.value, new Set(ids));
  const scrolling = useScrolling(list, { scroller, content, top, bottom }, waiting.length);
  const flash = scrolling.flashId.value;
  const mixed = mixesConversations(list.narrow);
  const plans = planRows([...shown, ...waiting.map((item) => item.standIn)], { mixed, myId });

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    tracker.current = createReadTracker(element, { allowed: () => marksReadOnScroll(listRef.current.narrow), isUnread: (id) => unreads.peek().has(id) });
    return () => tracker.current?.dispose();
  }, []);

  useEffect(() => {
    announceFor(list.narrow);
    return () => announceFor(null);
  }, [list]);

  // After every render: watch the rows of unread messages, once the list has its position.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !tracker.current || loading === "initial") return;
    const rows = new Map<Element, number>();
    for (const row of element.querySelectorAll<HTMLElement>("article.unread[data-message-id]")) rows.set(row, Number(row.dataset.messageId));
    tracker.current.watch(rows);
  });

  // The reading policy may change while the view is open.
  useSignalEffect(() => {
    userSettings.value;
    tracker.current?.recheck();
  });

  // j/k, and an edit started from the keyboard: that row comes into view.
  useSignalEffect(() => {
    const id = editingId.value ?? selectedId.value;
    if (id === null) return;
    scroller.current?.querySelector(`article[data-message-id="${id}"]`)?.scrollIntoView({ block: "nearest" });
  });

  const empty = shown.length === 0 && waiting.length === 0;
  let pendingAt = 0;

  return (
    <div class="message-view">
      {error && (
        <div class="message-error" role="alert">
          <span>Messages could not be loaded: {error}</span>
          <Button
            small
            onClick={() => {
              list.error.value = null;
              if (ids.length === 0) void loadInitial(list);
            }}
          >
            Try again
          </Button>
        </div>
      )}
      <div class="message-list" data-testid="message-list" role="feed" aria-label="Messages" aria-busy={loading !== null} ref={scroller}>
        <div class="message-list-inner" ref={content}>
          <div class="list-edge" ref={top}>
            {loading === "older" ? "Loading…" : list.foundOldest.value && !empty ? beginningOf(list.narrow) : null}
          </div>
          {empty && loading === "initial" && <Skeleton />}
          {empty && loading !== "initial" && !error && (
            <div class="message-empty">
              <p>{list.narrow.kind === "search" ? "No messages match this search." : "No messages here yet."}</p>
              {list.narrow.kind !== "search" && <p class="muted">Start the conversation below.</p>}
            </div>
          )}
          {/* One flat list of keyed elements: nested arrays would be matched by position, so every row
              would be drawn anew whenever history is prepended or the list's far end trimmed. */}
          {plans.flatMap((plan, index) => {
            const parts = [];
            if (index >= shown.length) {
              const item = waiting[pendingAt++];
              if (plan.dayStart) parts.push(<DayDivider key={`dp${item.send.localId}`} timestamp={plan.message.timestamp} />);
              if (plan.conversationStart) parts.push(<RecipientHeader key={`h${item.send.localId}`} message={plan.message} />);
              parts.push(<PendingRow key={`p${item.send.localId}`} send={item.send} showSender={plan.showSender} />);
              return parts;
            }
            const id = plan.message.id;
            if (plan.dayStart) parts.push(<DayDivider key={`d${id}`} timestamp={plan.message.timestamp} />);
            if (plan.conversationStart) parts.push(<RecipientHeader key={`h${id}`} message={plan.message} />);
            parts.push(
              <MessageRow key={`m${id}`} message={plan.message} showSender={plan.showSender} unread={unread.has(id)} selected={selected === id} editing={editing === id} flash={flash === id} />,
            );
            return parts;
          })}
          <div class="list-edge" ref={bottom}>
            {loading === "newer" ? "Loading…" : null}
          </div>
        </div>
      </div>
      {(scrolling.newBelow.value || scrolling.far.value) && (
        <button type="button" class="jump-newest" onClick={scrolling.toNewest}>
          {scrolling.newBelow.value ? "New messages ↓" : "Scroll to bottom ↓"}
        </button>
      )}
      <LiveRegion />
      <ActionsMenuHost />
      <ReactionPickerHost />
      <DeleteDialogHost />
    </div>
  );
}
