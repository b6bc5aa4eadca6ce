import { type ClientDevice, countClientDevices, deleteClientDevice, findOwnClientDevice, insertClientDevice, type PushRegistrationChanges, updateClientDevice } from "../db/clientDevices";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import type { User } from "../db/users";
import { badRequest } from "../http/errors";
import { now } from "../model/clock";

/**
 * Signed-in client installs and their end-to-end-encrypted push registration (zulip-flutter's
 * registerClientDevice, removeClientDevice and registerPushDevice; the reference's
 * register-push-device). Stored only: no notification is pushed yet, so nothing here is
 * checked against the push bouncer. Each user sees and changes only their own devices.
 */

/** Bound on one account's devices, so a client stuck in a loop cannot fill the database. */
export const MAX_DEVICES_PER_USER = 1000;
export const INVALID_DEVICE = "Invalid device ID";

/** Bots have no devices, as with the legacy push token endpoints. */
function checkHuman(user: User) {
  if (user.isBot) throw badRequest("This endpoint does not accept bot requests.");
}

async function accessOwnDevice(tx: Tx, user: User, deviceId: number): Promise<ClientDevice> {
  const device = await findOwnClientDevice(tx, user.id, deviceId);
  if (!device) throw badRequest(INVALID_DEVICE);
  return device;
}

export async function registerClientDevice(user: User): Promise<number> {
  checkHuman(user);
  return write(async (tx) => {
    if ((await countClientDevices(tx, user.id)) >= MAX_DEVICES_PER_USER) throw badRequest(`Too many devices registered (limit: ${MAX_DEVICES_PER_USER}); remove unused ones first.`);
    return (await insertClientDevice(tx, user.id, now())).id;
  });
}

export async function removeClientDevice(user: User, deviceId: number) {
  checkHuman(user);
  await write(async (tx) => deleteClientDevice(tx, (await accessOwnDevice(tx, user, deviceId)).id));
}

export interface PushRegistrationInput {
  deviceId: number;
  pushKeyId?: number;
  pushKey?: string;
  tokenKind?: string;
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const base64Bytes = (text: string): Buffer | null => (BASE64.test(text) ? Buffer.from(text, "base64") : null);

/** The reference's push key: one byte naming the cryptosystem (0x31, libsodium secretbox), then its 32-byte key. */
const PUSH_KEY_PREFIX = 0x31;
const PUSH_KEY_BYTES = 33;
/** The token ID: the first 8 bytes of the token's SHA-256, in base64. */
const TOKEN_ID_BYTES = 8;
const MAX_OPAQUE_LENGTH = 10_000;

const KEY_FIELDS = ["push_key_id", "push_key"] as const;
const TOKEN_FIELDS = ["token_kind", "token_id", "bouncer_public_key", "encrypted_push_registration"] as const;

/** Which groups were given; each must be given whole or not at all, and at least one must be. */
function givenGroups(input: PushRegistrationInput): { key: boolean; token: boolean } {
  const keyValues = [input.pushKeyId, input.pushKey];
  const tokenValues = [input.tokenKind, input.tokenId, input.bouncerPublicKey, input.encryptedPushRegistration];
  const key = keyValues.some((value) => value !== undefined);
  const token = tokenValues.some((value) => value !== undefined);
  if (key && keyValues.some((value) => value === undefined)) throw badRequest(`${KEY_FIELDS.join(" and ")} must be given together.`);
  if (token && tokenValues.some((value) => value === undefined)) throw badRequest(`${TOKEN_FIELDS.join(", ")} must be given together.`);
  if (!key && !token) throw badRequest(`Missing parameters: give the push key fields (${KEY_FIELDS.join(", ")}), the token fields (${TOKEN_FIELDS.join(", ")}), or both.`);
  return { key, token };
}

function keyChanges(input: PushRegistrationInput): PushRegistrationChanges {
  const bytes = base64Bytes(input.pushKey!);
  if (!bytes || bytes.length !== PUSH_KEY_BYTES || bytes[0] !== PUSH_KEY_PREFIX) throw badRequest("Invalid push_key");
  return { pushKeyId: input.pushKeyId!, pushKey: input.pushKey! };
}

function tokenChanges(input: PushRegistrationInput): PushRegistrationChanges {
  const tokenKind = input.tokenKind!;
  if (tokenKind !== "fcm" && tokenKind !== "apns") throw badRequest("Invalid token_kind");
  const tokenId = base64Bytes(input.tokenId!);
  if (!tokenId || tokenId.length !== TOKEN_ID_BYTES) throw badRequest("Invalid token_id");
  for (const [name, value] of [["bouncer_public_key", input.bouncerPublicKey!], ["encrypted_push_registration", input.encryptedPushRegistration!]] as const) {
    if (value.trim() === "" || value.length > MAX_OPAQUE_LENGTH) throw badRequest(`Invalid ${name}`);
  }
  return { tokenKind, tokenId: input.tokenId!, bouncerPublicKey: input.bouncerPublicKey!, encryptedPushRegistration: input.encryptedPushRegistration! };
}

/**
 * Registers the device for end-to-end-encrypted push, or rotates its key or its token. The
 * first registration needs both groups, as the reference documents.
 */
export async function registerPushDevice(user: User, input: PushRegistrationInput) {
  checkHuman(user);
  const groups = givenGroups(input);
  const changes: PushRegistrationChanges = { ...(groups.key ? keyChanges(input) : {}), ...(groups.token ? tokenChanges(input) : {}) };
  await write(async (tx) => {
    const device = await accessOwnDevice(tx, user, input.deviceId);
    const registered = device.pushKey !== null || device.tokenId !== null;
    if (!registered && !(groups.key && groups.token)) throw badRequest("The first registration of a device needs both the push key fields and the token fields.");
    await updateClientDevice(tx, device.id, { ...changes, pushRegistrationTime: now() });
  });
}
