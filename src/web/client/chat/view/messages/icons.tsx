/** The message actions' line icons (24×24, stroked in the text colour), beside ui/icons.tsx's set. */

const PATHS = {
  react: "M12 22a10 10 0 1 1 10-10M8 14s1.5 2 4 2 4-2 4-2M9 9h.01M15 9h.01M19 16v6M16 19h6",
  reply: "M9 17l-5-5 5-5M4 12h11a5 5 0 0 1 5 5v2",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  star: "M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8-6.2-3.2-6.2 3.2L7 14.2 2 9.3l6.9-1z",
  edit: "M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z",
  trash: "M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6M10 11v6M14 11v6",
  link: "M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7",
} as const;

export type ActionIconName = keyof typeof PATHS;

export function ActionIcon(props: { name: ActionIconName; filled?: boolean; size?: number }) {
  const size = props.size ?? 16;
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill={props.filled ? "currentColor" : "none"} stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
      <path d={PATHS[props.name]} />
    </svg>
  );
}
