import { useState } from "preact/hooks";
import { api } from "../ui/api";
import { Badge, Button, Empty, Loaded, Notice, toast, useAction, useLoad } from "../ui/components";
import { formatAgo, formatDateTime } from "../ui/format";
import { currentSubscription, pushSupported, removePushDevice, subscribeToPush } from "../ui/webPush";

/**
 * The person's devices that get notifications while Parley is closed (web push): which browser
 * or installed app each is, a way to remove it, and how to install Parley on a phone.
 */

interface PushDevice {
  id: number;
  endpoint: string;
  created_at: number;
  last_delivered_at: number | null;
}

const hostOf = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint.slice(0, 40);
  }
};

/** Each browser family pushes through its maker's service, so the endpoint's host says which kind of browser a device is. */
const SERVICES: Array<[RegExp, string]> = [
  [/(^|\.)fcm\.googleapis\.com$|(^|\.)android\.googleapis\.com$/, "Chrome, Edge or another Chromium browser"],
  [/(^|\.)push\.services\.mozilla\.com$/, "Firefox"],
  [/(^|\.)push\.apple\.com$/, "Safari, or an app on an iPhone or iPad"],
  [/(^|\.)notify\.windows\.com$/, "Edge on Windows"],
];

const describeService = (host: string) => SERVICES.find(([pattern]) => pattern.test(host.replace(/:\d+$/, "")))?.[1] ?? "Other push service";

async function loadDevices() {
  const [{ subscriptions }, mine] = await Promise.all([api<{ subscriptions: PushDevice[] }>("GET", "/users/me/web_push_subscriptions"), currentSubscription()]);
  const here = mine?.endpoint ?? null;
  // This browser first, then the newest.
  const devices = [...subscriptions].sort((a, b) => Number(b.endpoint === here) - Number(a.endpoint === here) || b.created_at - a.created_at);
  return { devices, here };
}

export function PushDevices() {
  const state = useLoad(loadDevices);
  const { busy, run } = useAction();
  const [note, setNote] = useState<string | null>(null);
  const remove = (device: PushDevice) => run(`remove-${device.id}`, () => removePushDevice(device.endpoint), "The device was removed; it gets no more notifications.").then(state.reload);
  const turnOn = () =>
    run("turn-on", async () => {
      if (Notification.permission === "default") await Notification.requestPermission();
      const outcome = await subscribeToPush();
      setNote(outcome.on ? null : outcome.reason);
      if (outcome.on) toast("This browser now gets notifications while Parley is closed.");
      state.reload();
    });

  return (
    <section class="card">
      <div class="card-head">
        <div>
          <h2>Your devices</h2>
          <p class="hint">Browsers and installed apps that show your notifications even while Parley is closed.</p>
        </div>
        <Loaded state={state}>
          {({ here }) =>
            !here &&
            pushSupported() &&
            Notification.permission !== "denied" && (
              <Button busy={busy === "turn-on"} onClick={turnOn}>
                Turn on in this browser
              </Button>
            )
          }
        </Loaded>
      </div>
      {note && (
        <div class="card-body">
          <Notice kind="warn">{note} Notifications show while Parley is open in a tab.</Notice>
        </div>
      )}
      <Loaded state={state}>
        {({ devices, here }) =>
          devices.length === 0 ? (
            <Empty>No device gets notifications while Parley is closed.</Empty>
          ) : (
            <div class="table-wrap">
              <table class="table">
                <thead>
                  <tr>
                    <th>Device</th>
                    <th>Added</th>
                    <th>Last notified</th>
                    <th class="actions">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {devices.map((device) => (
                    <tr key={device.id} data-device-id={device.id}>
                      <td>
                        <span class="cell-main">
                          <strong>
                            {describeService(hostOf(device.endpoint))} {device.endpoint === here && <Badge kind="ok">this browser</Badge>}
                          </strong>
                          <small class="mono">{hostOf(device.endpoint)}</small>
                        </span>
                      </td>
                      <td data-label="Added" class="nowrap">
                        {formatDateTime(device.created_at)}
                      </td>
                      <td data-label="Last notified" class="nowrap">
                        {device.last_delivered_at === null ? "never" : formatAgo(device.last_delivered_at)}
                      </td>
                      <td class="actions">
                        <Button small variant="danger" busy={busy === `remove-${device.id}`} onClick={() => remove(device)}>
                          Remove
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </section>
  );
}

/** How to put Parley on a phone's home screen, where notifications need it (iOS) or it is nicer (Android). */
export function InstallInstructions() {
  return (
    <section class="card">
      <div class="card-head">
        <div>
          <h2>Parley on your phone</h2>
          <p class="hint">Install it as an app: it opens in its own window and can notify you while closed.</p>
        </div>
      </div>
      <div class="card-body install-steps">
        <div>
          <h3>iPhone and iPad</h3>
          <p class="hint">iOS 16.4 or later, in Safari.</p>
          <ol class="plain-list">
            <li>Open this site, tap Share, then Add to Home Screen.</li>
            <li>Open Parley from the home screen and sign in.</li>
            <li>Tap “Turn on notifications” in the sidebar and allow them.</li>
          </ol>
        </div>
        <div>
          <h3>Android</h3>
          <p class="hint">Chrome, Edge, Firefox or Samsung Internet.</p>
          <ol class="plain-list">
            <li>Open this site and tap Install when the browser offers it, or open the menu (⋮) and choose Install app (or Add to Home screen).</li>
            <li>Open Parley from the home screen and turn notifications on.</li>
          </ol>
        </div>
      </div>
    </section>
  );
}
