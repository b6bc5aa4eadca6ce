import webpush from "web-push";
import { readServerSetting, writeServerSetting } from "../db/serverSettings";
import { write } from "../db/transaction";
import { storedWebPushKeys, type VapidKeys, WEB_PUSH_KEYS_SETTING } from "../reads/webPushKeys";

/** Makes the server's VAPID keys if it has none (at start; see reads/webPushKeys.ts). */
export async function ensureWebPushKeys(): Promise<VapidKeys> {
  const stored = await storedWebPushKeys();
  if (stored) return stored;
  // Two nodes starting at once: writes take turns, and the second finds the first's.
  await write(async (tx) => {
    if (await readServerSetting<VapidKeys>(tx, WEB_PUSH_KEYS_SETTING)) return;
    const made = webpush.generateVAPIDKeys();
    await writeServerSetting(tx, WEB_PUSH_KEYS_SETTING, { publicKey: made.publicKey, privateKey: made.privateKey } satisfies VapidKeys);
  });
  const keys = await storedWebPushKeys();
  if (!keys) throw new Error("The Web Push keys were made but cannot be read back");
  return keys;
}
