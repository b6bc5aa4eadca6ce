/** An unread count beside a sidebar entry; nothing at zero. */
export function Count(props: { count: number | undefined; strong?: boolean; label?: string }) {
  if (!props.count) return null;
  return (
    <span class={`unread-count${props.strong ? " strong" : ""}`} aria-label={`${props.count} ${props.label ?? "unread"}`}>
      {props.count > 999 ? "999+" : props.count}
    </span>
  );
}
