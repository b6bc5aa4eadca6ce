import { Avatar } from "../../../ui/components";
import { dmKey, sameNarrow, type Narrow } from "../../model/narrow";
import { hashOf } from "../../state/place";
import { lastActive, me, recentDms, users } from "../../state/store";
import { unreadCounts } from "../../state/unreads";
import { dmTitle } from "../narrowTitle";
import { Count } from "./Count";

/** Conversations shown; older ones are reached by search or a person's name. */
const SHOWN = 15;
/** Active within this long counts as here (the server's offline threshold is 140 s). */
const ONLINE_SECONDS = 140;

export function DirectMessageList(props: { narrow: Narrow; onNew: () => void }) {
  const counts = unreadCounts.value.byDm;
  const conversations = [...recentDms.value].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  const now = Date.now() / 1000;
  return (
    <section class="side-section" aria-labelledby="dms-heading">
      <div class="side-heading">
        <h2 id="dms-heading">Direct messages</h2>
        <button type="button" class="side-add" aria-label="New direct message" title="New direct message (x)" onClick={props.onNew}>
          +
        </button>
      </div>
      {conversations.length === 0 && <p class="side-empty">No conversations yet.</p>}
      {conversations.map(([key]) => {
        const userIds = key.split(",").map(Number);
        const narrow: Narrow = { kind: "dm", userIds };
        const single = userIds.length === 1 ? users.value.get(userIds[0]) : undefined;
        const online = single && single.user_id !== me.value.userId && now - (lastActive.value.get(single.user_id) ?? 0) < ONLINE_SECONDS;
        return (
          <a key={key} href={hashOf(narrow)} class="side-link dm" data-dm={dmKey(userIds)} aria-current={sameNarrow(narrow, props.narrow) ? "page" : undefined}>
            <span class="dm-avatar">
              {single ? <Avatar name={single.full_name} url={single.avatar_url} /> : <span class="group-mark">{userIds.length + 1}</span>}
              {online && <span class="online-dot" title="Active now" />}
            </span>
            <span class="side-label">{dmTitle(userIds)}</span>
            <Count count={counts.get(key)} strong />
          </a>
        );
      })}
    </section>
  );
}
