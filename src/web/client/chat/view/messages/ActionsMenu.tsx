import { signal } from "@preact/signals";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { Message } from "../../model/types";
import { messages, messagesVersion } from "../../state/messages";
import { me, realm } from "../../state/store";
import { replyTo } from "../compose/state";
import { copyLink, isStarred, setStarred } from "./actions";
import { deleting } from "./DeleteDialog";
import { startEditing } from "./editing";
import { ActionIcon, type ActionIconName } from "./icons";
import { canDelete, canEdit } from "./permissions";
import { placeBeside } from "./popover";
import { openReactionPicker } from "./ReactionPicker";

/**
 * A message's actions as a menu: opened by its "…" button (always shown on touch screens,
 * where nothing hovers), one for the whole view. Arrow keys move, Escape closes and gives the
 * focus back to the button. On a phone it is a sheet at the bottom of the screen.
 */

export const menuFor = signal<{ messageId: number; anchor: HTMLElement } | null>(null);

export function toggleActionsMenu(messageId: number, anchor: HTMLElement) {
  menuFor.value = menuFor.value?.messageId === messageId ? null : { messageId, anchor };
}

function closeMenu(refocus: boolean) {
  const anchor = menuFor.value?.anchor;
  menuFor.value = null;
  if (refocus && anchor?.isConnected) anchor.focus();
}

interface Item {
  label: string;
  icon: ActionIconName;
  filled?: boolean;
  danger?: boolean;
  run: () => void;
}

export function menuItems(message: Message, anchor: HTMLElement): Item[] {
  const now = Date.now() / 1000;
  const viewer = { userId: me.value.userId, isAdmin: me.value.isAdmin };
  const starred = isStarred(message);
  const items: Item[] = [
    { label: "Add a reaction", icon: "react", run: () => openReactionPicker(message.id, anchor) },
    { label: "Reply", icon: "reply", run: () => replyTo(message) },
    { label: starred ? "Unstar" : "Star", icon: "star", filled: starred, run: () => void setStarred(message, !starred) },
    { label: "Copy link", icon: "link", run: () => void copyLink(message) },
  ];
  if (canEdit(message, viewer, realm.value, now)) items.push({ label: "Edit", icon: "edit", run: () => startEditing(message.id) });
  if (canDelete(message, viewer, realm.value, now)) items.push({ label: "Delete", icon: "trash", danger: true, run: () => (deleting.value = message.id) });
  return items;
}

export function ActionsMenuHost() {
  const open = menuFor.value;
  messagesVersion.value;
  const message = open && messages.get(open.messageId);
  if (!open || !message) return null;
  return <ActionsMenu message={message} anchor={open.anchor} />;
}

function ActionsMenu({ message, anchor }: { message: Message; anchor: HTMLElement }) {
  const box = useRef<HTMLDivElement>(null);
  const items = menuItems(message, anchor);

  useLayoutEffect(() => {
    if (!box.current) return;
    placeBeside(box.current, anchor);
    box.current.querySelector<HTMLElement>("[role=menuitem]")?.focus();
  }, [message.id]);

  useEffect(() => {
    const outside = (event: Event) => {
      const target = event.target as Node;
      if (!box.current?.contains(target) && !anchor.contains(target)) closeMenu(false);
    };
    document.addEventListener("pointerdown", outside, true);
    return () => document.removeEventListener("pointerdown", outside, true);
  }, [anchor]);

  function onKeyDown(event: KeyboardEvent) {
    const buttons = [...(box.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      buttons[(moves[event.key] + buttons.length) % buttons.length]?.focus();
    } else if (event.key === "Escape") {
      // Handled here: the chat's own Escape (back to the feed) must not run as well.
      event.preventDefault();
      event.stopPropagation();
      closeMenu(true);
    } else if (event.key === "Tab") closeMenu(false);
  }

  return (
    <>
      <div class="floating-scrim" onClick={() => closeMenu(false)} />
      <div class="floating msg-menu" role="menu" aria-label="Message actions" ref={box} onKeyDown={onKeyDown}>
        {items.map((item) => (
          <button
            key={item.label}
            type="button"
            role="menuitem"
            class={`msg-menu-item${item.danger ? " danger" : ""}`}
            onClick={() => {
              closeMenu(false);
              item.run();
            }}
          >
            <ActionIcon name={item.icon} filled={item.filled} />
            {item.label}
          </button>
        ))}
      </div>
    </>
  );
}
