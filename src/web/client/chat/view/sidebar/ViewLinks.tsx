import { Icon } from "../../../ui/icons";
import { sameNarrow, type Narrow } from "../../model/narrow";
import { hashOf } from "../../state/place";
import { unreadCounts } from "../../state/unreads";
import { Count } from "./Count";

const VIEWS: Array<{ narrow: Narrow; label: string; icon: "chat" | "bell" | "note" }> = [
  { narrow: { kind: "feed" }, label: "Combined feed", icon: "chat" },
  { narrow: { kind: "mentions" }, label: "Mentions", icon: "bell" },
  { narrow: { kind: "starred" }, label: "Starred", icon: "note" },
];

export function ViewLinks(props: { narrow: Narrow }) {
  const counts = unreadCounts.value;
  return (
    <div class="chat-views">
      {VIEWS.map((view) => (
        <a href={hashOf(view.narrow)} class="side-link" aria-current={sameNarrow(view.narrow, props.narrow) ? "page" : undefined}>
          <span class="side-icon">
            <Icon name={view.icon} size={16} />
          </span>
          <span class="side-label">{view.label}</span>
          {view.narrow.kind === "feed" && <Count count={counts.total} />}
          {view.narrow.kind === "mentions" && <Count count={counts.mentions} strong label="unread mentions" />}
        </a>
      ))}
    </div>
  );
}
