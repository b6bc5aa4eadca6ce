import { connection } from "../state/connection";

/** Says when the server is away or the chat is catching up; nothing while all is well. */
export function ConnectionBanner() {
  const { status, message } = connection.value;
  if (status === "live") return null;
  const text =
    status === "starting"
      ? "Connecting to the server…"
      : status === "resyncing"
        ? "Catching up with what you missed…"
        : `Can't reach the server. Reconnecting…${message ? ` (${message})` : ""}`;
  return (
    <div class={`connection-banner ${status}`} role="status">
      <span class="spinner" aria-hidden="true" />
      {text}
    </div>
  );
}
