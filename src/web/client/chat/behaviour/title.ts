import { effect } from "@preact/signals";
import { narrowTitle } from "../view/narrowTitle";
import { currentNarrow } from "../state/place";
import { realm } from "../state/store";
import { unreadCounts } from "../state/unreads";

/** The tab's title: the unread count first, so it shows in a crowded tab bar, then where the person is. */
export function followTitle() {
  effect(() => {
    const count = unreadCounts.value.total;
    const where = narrowTitle(currentNarrow.value);
    document.title = `${count ? `(${count > 999 ? "999+" : count}) ` : ""}${where} · ${realm.value.name ?? "Parley"}`;
  });
}
