import { useSignal } from "@preact/signals";
import { Toasts } from "../../ui/components";
import { currentList, currentNarrow } from "../state/place";
import { Compose } from "./compose/Compose";
import { ConnectionBanner } from "./ConnectionBanner";
import { Header } from "./Header";
import { MessageView } from "./messages/MessageView";
import { KeysDialog } from "./shortcuts";
import { Sidebar } from "./sidebar/Sidebar";

/**
 * The chat: the sidebar of conversations beside the message column (header, messages,
 * compose). On a phone the sidebar is a drawer over the one column.
 */
export function App() {
  const drawer = useSignal(false);
  const list = currentList.value;
  return (
    <div class={`chat${drawer.value ? " drawer-open" : ""}`}>
      <a class="sr-only skip" href="#chat-main">
        Skip to messages
      </a>
      <Sidebar onNavigate={() => (drawer.value = false)} />
      <div class="scrim" onClick={() => (drawer.value = false)} />
      <main id="chat-main" class="chat-main">
        <Header narrow={currentNarrow.value} onMenu={() => (drawer.value = !drawer.value)} />
        <ConnectionBanner />
        {list && <MessageView list={list} />}
        <Compose />
      </main>
      <KeysDialog />
      <Toasts />
    </div>
  );
}
