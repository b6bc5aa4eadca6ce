import { deletePushDevice, savePushDevice, type PushDeviceKind } from "../db/pushDevices";
import { write } from "../db/transaction";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";

/** Push device registrations (spec 4.14): stored per user for the push feature; nothing is pushed yet. */

export const MAX_PUSH_TOKEN_LENGTH = 4096;
// APNs device tokens reach servers as hex: whole bytes, so an even number of digits.
const APNS_TOKEN = /^(?:[0-9a-fA-F]{2})+$/;
// A bundle identifier: letters, digits, hyphens and dots.
const APP_ID = /^[A-Za-z0-9.-]+$/;

function checkToken(kind: PushDeviceKind, token: string) {
  if (token === "" || token.length > MAX_PUSH_TOKEN_LENGTH) throw badRequest("Empty or invalid length token");
  if (kind === "apns" && !APNS_TOKEN.test(token)) throw badRequest("Invalid APNS token");
}

/** Bots have no devices. */
function checkHuman(user: User) {
  if (user.isBot) throw badRequest("This endpoint does not accept bot requests.");
}

export async function registerPushDevice(user: User, kind: PushDeviceKind, token: string, appId: string | null) {
  checkHuman(user);
  checkToken(kind, token);
  if (appId !== null && !APP_ID.test(appId)) throw badRequest("Invalid app ID");
  await write((tx) => savePushDevice(tx, { userId: user.id, kind, token, appId, lastUpdated: now() }));
}

export async function unregisterPushDevice(user: User, kind: PushDeviceKind, token: string) {
  checkHuman(user);
  checkToken(kind, token);
  await write(async (tx) => {
    if (!(await deletePushDevice(tx, user.id, kind, token))) throw badRequest("Token does not exist");
  });
}
