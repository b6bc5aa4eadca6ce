import { useSignal } from "@preact/signals";
import { signOut } from "../../../ui/api";
import { Avatar, Button } from "../../../ui/components";
import { Icon } from "../../../ui/icons";
import { notificationPermission } from "../../behaviour/notifications";
import { pushNote, turnOnNotifications } from "../../behaviour/webPush";
import { currentNarrow, hashOf } from "../../state/place";
import { me, realm, userStatus } from "../../state/store";
import { openDirectCompose } from "../compose/state";
import { ChannelList } from "./ChannelList";
import { DirectMessageList } from "./DirectMessageList";
import { ViewLinks } from "./ViewLinks";

/**
 * The chat's sidebar: the views (feed, mentions, starred), the channels with their topics, the
 * direct-message conversations, and the person with their ways out (settings, console).
 * On a phone it is the drawer; following any link closes it.
 */
export function Sidebar(props: { onNavigate: () => void }) {
  const person = me.value;
  const status = userStatus.value[String(person.userId)];
  const menu = useSignal(false);
  return (
    <aside class="chat-sidebar" aria-label="Conversations" onClick={(event) => (event.target as Element).closest("a") && props.onNavigate()}>
      <div class="chat-brand">
        <span class="brand-mark" aria-hidden="true">
          {realm.value.name.slice(0, 1).toUpperCase() || "P"}
        </span>
        <span class="chat-brand-name">{realm.value.name}</span>
      </div>
      <nav class="chat-nav">
        <ViewLinks narrow={currentNarrow.value} />
        <ChannelList narrow={currentNarrow.value} />
        <DirectMessageList narrow={currentNarrow.value} onNew={openDirectCompose} />
      </nav>
      {notificationPermission.value === "default" && (
        <button type="button" class="notify-ask" onClick={() => void turnOnNotifications()}>
          <Icon name="bell" size={16} /> Turn on notifications for direct messages and mentions
        </button>
      )}
      {pushNote.value && (
        <p class="notify-note" role="status">
          <span>{pushNote.value}</span>
          <button type="button" class="notify-note-close" aria-label="Dismiss" onClick={() => (pushNote.value = null)}>
            ×
          </button>
        </p>
      )}
      <div class="chat-me">
        <button type="button" class="chat-me-button" aria-expanded={menu.value} aria-haspopup="menu" onClick={() => (menu.value = !menu.value)}>
          <Avatar name={person.fullName} url={person.avatarUrl} />
          <span class="chat-me-text">
            <span>{person.fullName}</span>
            <small>{status?.status_text || (status?.away ? "Away" : person.email)}</small>
          </span>
        </button>
        {menu.value && (
          <div class="chat-me-menu" role="menu">
            <a role="menuitem" href="/settings/profile">
              <Icon name="user" size={16} /> Profile and settings
            </a>
            <a role="menuitem" href="/settings/status">
              <Icon name="note" size={16} /> Set a status
            </a>
            {person.isAdmin && (
              <a role="menuitem" href="/admin/">
                <Icon name="settings" size={16} /> Administration
              </a>
            )}
            <a role="menuitem" href={hashOf({ kind: "dm", userIds: [person.userId] })}>
              <Icon name="note" size={16} /> Notes to self
            </a>
            <Button variant="ghost" small onClick={signOut}>
              Sign out
            </Button>
          </div>
        )}
      </div>
    </aside>
  );
}
