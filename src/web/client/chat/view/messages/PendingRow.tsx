import { Avatar, Button } from "../../../ui/components";
import { discard, retry, type PendingMessage } from "../../state/echo";
import { me } from "../../state/store";

/**
 * A message on its way: the text as typed (plain text, never Markdown rendered here), muted
 * while it is sent; if the send failed, in red with the reason and Retry and Discard. Only the
 * person's click sends it again.
 */
export function PendingRow({ send, showSender }: { send: PendingMessage; showSender: boolean }) {
  const failed = send.state === "failed";
  return (
    <article class={`msg ${showSender ? "msg-first" : "msg-continued"} ${failed ? "failed" : "pending"}`} data-local-id={send.localId} aria-label={showSender ? undefined : me.value.fullName}>
      <div class="msg-gutter">{showSender && <Avatar name={me.value.fullName} url={me.value.avatarUrl} />}</div>
      <div class="msg-main">
        {showSender && (
          <div class="msg-head">
            <span class="msg-sender">{me.value.fullName}</span>
          </div>
        )}
        <div class="msg-content pending-text">{send.content}</div>
        {failed ? (
          <div class="msg-status" role="alert">
            <span>Not sent: {send.error ?? "the server did not answer"}</span>
            <Button small onClick={() => retry(send.localId)}>
              Retry
            </Button>
            <Button small variant="ghost" onClick={() => discard(send.localId)}>
              Discard
            </Button>
          </div>
        ) : (
          <div class="msg-status">Sending…</div>
        )}
      </div>
    </article>
  );
}
