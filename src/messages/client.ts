/**
 * The "client" a message was sent from (the message's `client` field), and the reference's
 * heuristic on it for read_by_sender: messages typed by a person in a full client are read by
 * their sender; messages an integration posts with the user's own credentials are not.
 */

/** Column width the reference gives client names. */
const MAX_CLIENT_NAME_LENGTH = 30;

/**
 * The request's `client` parameter, else the product name at the start of its User-Agent
 * ("ZulipMobile/27.1 (Android 14)" → "ZulipMobile"), else "Unspecified".
 */
export function clientName(clientParam: string | undefined, userAgent: string | undefined): string {
  const fromAgent = userAgent?.trim().match(/^[^/\s]+/)?.[0];
  const name = clientParam?.trim() || fromAgent || "Unspecified";
  return name.slice(0, MAX_CLIENT_NAME_LENGTH);
}

const HUMAN_CLIENTS = new Set(["zulipandroid", "zulipios", "zulipdesktop", "zulipmobile", "zulipelectron", "zulipterminal", "zulipflutter", "snipe", "website", "ios", "android"]);

/** Whether a client is one people type into (reference: Message.sent_by_human). */
export function isHumanClient(client: string): boolean {
  const name = client.toLowerCase();
  return HUMAN_CLIENTS.has(name) || name.includes("desktop app");
}
