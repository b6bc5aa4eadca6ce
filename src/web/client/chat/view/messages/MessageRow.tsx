import { useLayoutEffect, useRef } from "preact/hooks";
import { Avatar } from "../../../ui/components";
import { isMention } from "../../model/narrow";
import type { Message } from "../../model/types";
import { me, mutedUsers, userSettings } from "../../state/store";
import { replyTo } from "../compose/state";
import { fillContent, onContentEvent } from "./content";
import { toggleActionsMenu } from "./ActionsMenu";
import { ActionIcon } from "./icons";
import { InlineEditor } from "./InlineEditor";
import { pure } from "./pure";
import { openReactionPicker } from "./ReactionPicker";
import { Reactions } from "./Reactions";
import { selectedId } from "./selection";
import { formatFullDate, formatTime } from "./time";

/**
 * One message: avatar and name at the start of a sender's run, the time, the server's HTML
 * (set only when it changed), reactions, and the actions that show on hover or focus. Rows
 * redraw only when their own props change: the message object is replaced when it is edited.
 */

export interface RowProps {
  message: Message;
  showSender: boolean;
  unread: boolean;
  selected: boolean;
  editing: boolean;
  flash: boolean;
}

function Content({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = useRef<{ element: HTMLElement | null; html: string }>({ element: null, html: "" });
  const myId = me.value.userId;
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || (shown.current.element === element && shown.current.html === html)) return;
    fillContent(element, html, myId);
    shown.current = { element, html };
  }, [html, myId]);
  return <div class="msg-content rendered" ref={ref} onClick={onContentEvent} onKeyDown={onContentEvent} />;
}

function Actions({ message }: { message: Message }) {
  return (
    <div class="msg-actions">
      {/* React and Reply are shortcuts for the mouse; the "…" menu holds them too and is the one keyboard stop. */}
      <button type="button" class="msg-action hover-only" tabIndex={-1} title="Add a reaction" aria-label="Add a reaction" onClick={(event) => openReactionPicker(message.id, event.currentTarget)}>
        <ActionIcon name="react" />
      </button>
      <button type="button" class="msg-action hover-only" tabIndex={-1} title="Reply" aria-label="Reply" onClick={() => replyTo(message)}>
        <ActionIcon name="reply" />
      </button>
      <button type="button" class="msg-action msg-more" title="Message actions" aria-label="Message actions" aria-haspopup="menu" onClick={(event) => toggleActionsMenu(message.id, event.currentTarget)}>
        <ActionIcon name="more" />
      </button>
    </div>
  );
}

function MessageRowView({ message, showSender, unread, selected, editing, flash }: RowProps) {
  const twentyFour = userSettings.value.twenty_four_hour_time ?? false;
  const muted = mutedUsers.value.has(message.sender_id);
  const time = (
    <time class="msg-time" dateTime={new Date(message.timestamp * 1000).toISOString()} title={formatFullDate(message.timestamp)}>
      {formatTime(message.timestamp, twentyFour)}
    </time>
  );
  const edited = message.last_edit_timestamp ? (
    <span class="msg-edited" title={`Edited ${formatFullDate(message.last_edit_timestamp)}`}>
      (edited)
    </span>
  ) : null;
  const classes = [
    "msg",
    showSender ? "msg-first" : "msg-continued",
    unread && "unread",
    isMention(message) && "mentioned",
    selected && "selected",
    flash && "flash",
    message.is_me_message && "me-message",
  ].filter(Boolean);

  function select(event: MouseEvent) {
    // Clicks on links, buttons, the editor and selected text do their own thing.
    const target = event.target as Element;
    if (target.closest("a, button, textarea, input, [role=button]") || getSelection()?.toString()) return;
    selectedId.value = message.id;
  }

  return (
    <article class={classes.join(" ")} data-message-id={message.id} onClick={select} aria-label={showSender ? undefined : message.sender_full_name}>
      <div class="msg-gutter">{showSender ? <Avatar name={message.sender_full_name} url={muted ? null : message.avatar_url} /> : time}</div>
      <div class="msg-main">
        {showSender && (
          <div class="msg-head">
            <span class="msg-sender">{muted ? "Muted user" : message.sender_full_name}</span>
            {time}
            {edited}
          </div>
        )}
        {editing ? (
          <InlineEditor message={message} />
        ) : muted ? (
          <p class="msg-muted muted small">Hidden because you muted this person.</p>
        ) : (
          <Content html={message.content} />
        )}
        {!showSender && edited}
        <Reactions message={message} />
      </div>
      {!editing && <Actions message={message} />}
    </article>
  );
}

export const MessageRow = pure(MessageRowView);
