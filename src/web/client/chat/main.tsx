import { render } from "preact";
import { applyRememberedColorScheme } from "../ui/theme";
import { notifyOnMessages } from "./behaviour/notifications";
import { reportPresence } from "./behaviour/presence";
import { followTitle } from "./behaviour/title";
import { startChatState } from "./state/startup";
import { App } from "./view/App";
import { listenToKeys } from "./view/shortcuts";

/**
 * The chat in the browser: everyone's home at `/`. It talks to the server only through the
 * public API and the event queue, as any other Zulip client does.
 */

applyRememberedColorScheme();
const root = document.getElementById("app")!;
root.innerHTML = '<p class="chat-starting">Loading…</p>';

startChatState(() => {
  root.textContent = "";
  render(<App />, root);
  followTitle();
  notifyOnMessages();
  reportPresence();
  listenToKeys();
});
