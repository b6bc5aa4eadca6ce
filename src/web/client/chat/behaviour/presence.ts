import { api } from "../../ui/api";

/**
 * Tells the server the person is here (POST /users/me/presence): at start, then about once a
 * minute while the tab is visible, and "idle" when it has been hidden for a while. Spells
 * hidden for under 5 s are ignored, as switching tabs briefly is not leaving.
 */

const INTERVAL_MS = 60_000;
const HIDDEN_GRACE_MS = 5_000;

let lastSent = 0;
let hiddenTimer: ReturnType<typeof setTimeout> | undefined;

function report(status: "active" | "idle", newInput: boolean) {
  lastSent = Date.now();
  void api("POST", "/users/me/presence", { status, new_user_input: newInput, ping_only: true, slim_presence: true }).catch(() => undefined);
}

export function reportPresence() {
  report("active", true);
  setInterval(() => document.visibilityState === "visible" && report("active", false), INTERVAL_MS);
  document.addEventListener("visibilitychange", () => {
    clearTimeout(hiddenTimer);
    if (document.visibilityState === "hidden") hiddenTimer = setTimeout(() => report("idle", false), HIDDEN_GRACE_MS);
    else if (Date.now() - lastSent > HIDDEN_GRACE_MS) report("active", true);
  });
}
