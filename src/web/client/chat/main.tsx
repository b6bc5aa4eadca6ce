import { effect } from "@preact/signals";
import { render } from "preact";
import { applyRememberedColorScheme } from "../ui/theme";
import { notifyOnMessages } from "./behaviour/notifications";
import { reportPresence } from "./behaviour/presence";
import { followColorSchemeSetting } from "./behaviour/theme";
import { followTitle } from "./behaviour/title";
import { keepWebPush } from "./behaviour/webPush";
import { connection } from "./state/connection";
import { startChatState } from "./state/startup";
import { App } from "./view/App";
import { listenToKeys } from "./view/shortcuts";

/**
 * The chat in the browser: everyone's home at `/`. It talks to the server only through the
 * public API and the event queue, as any other Zulip client does.
 */

applyRememberedColorScheme();
const root = document.getElementById("app")!;
const starting = document.createElement("p");
starting.className = "chat-starting";
starting.setAttribute("role", "status");
root.replaceChildren(starting);
// Until the first register succeeds, say what is happening (the server may be starting, or away).
const stopShowing = effect(() => {
  const { failures, message } = connection.value;
  starting.textContent = failures ? `Can't reach the server yet${message ? ` (${message})` : ""}. Trying again…` : "Loading…";
});

startChatState(() => {
  stopShowing();
  root.textContent = "";
  render(<App />, root);
  followTitle();
  followColorSchemeSetting();
  notifyOnMessages();
  keepWebPush();
  reportPresence();
  listenToKeys();
});
