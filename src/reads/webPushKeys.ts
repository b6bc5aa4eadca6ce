import { serverSettingNow } from "../db/serverSettings";
import { read } from "../db/transaction";

/**
 * The server's VAPID key pair (RFC 8292), made once (actions/webPushKeys.ts, at start) and kept
 * in the database, so every node of a cluster signs with the same key and the browsers'
 * subscriptions, which are bound to its public half, survive restarts.
 */

export const WEB_PUSH_KEYS_SETTING = "web_push_vapid_keys";

export interface VapidKeys {
  /** The 65-byte uncompressed P-256 point, base64url: what browsers subscribe with. */
  publicKey: string;
  /** The private scalar, base64url. */
  privateKey: string;
}

/** The keys, or null before they are made. */
export const storedWebPushKeys = (): Promise<VapidKeys | null> => read((db) => serverSettingNow<VapidKeys>(db, WEB_PUSH_KEYS_SETTING)).then((keys) => keys ?? null);

/** The public key for GET /server_settings, or null before the keys are made or should they be unreadable. */
export const webPushPublicKey = (): Promise<string | null> => storedWebPushKeys().then(
  (keys) => keys?.publicKey ?? null,
  () => null,
);
