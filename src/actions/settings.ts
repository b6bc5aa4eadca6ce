import { splitAudienceByAccess } from "../access/userAccess";
import { deleteDraftsOfUser } from "../db/drafts";
import { deleteSessionsOf } from "../db/sessions";
import { getRealm, realmHost } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserById, type User, updateUser } from "../db/users";
import { badRequest } from "../http/errors";
import { LEGACY_DISPLAY_SETTINGS, LEGACY_NOTIFICATION_SETTINGS, NOTIFICATION_SOUNDS } from "../model/legacyUserSettings";
import { defaultUserSettings, settingValueProblem, type UserSettingName, type UserSettings } from "../model/userSettings";
import { avatarUrl, canSeeDeliveryEmail, standInEmail } from "../shapes/users";
import { usersWhoCanSee } from "../access/userAccess";
import { isOwnPassword } from "./login";
import { presenceSharingChanged } from "./presence";
import { checkFullName, renameUser } from "./users";
import { hashPassword } from "./passwordHashing";

export interface SettingsInput {
  fullName?: string;
  settings: Partial<Record<UserSettingName, unknown>>;
  password?: PasswordChange;
}

/** new_password, with the old_password that must come with it. */
export interface PasswordChange {
  old: string | undefined;
  new: string;
  /** Where the request came from: wrong old passwords count against the sign-in limits there. */
  address: string;
  /** The browser session the change was made in, which stays; every other one ends. */
  keepSessionId: number | null;
}

const MIN_PASSWORD_LENGTH = 8;

/** The new password's hash, once the old one proved to be the caller's (the reference's errors). */
async function newPasswordHash(user: User, change: PasswordChange): Promise<string> {
  if (change.old === undefined) throw badRequest("Missing 'old_password' argument");
  // Before the old one is checked, so a typo in the new one costs no attempt.
  if (change.new.length < MIN_PASSWORD_LENGTH) throw badRequest(`The new password is too weak: use at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (!(await isOwnPassword(user, change.old, change.address))) throw badRequest("Wrong password!");
  return hashPassword(change.new);
}

const languageNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/** The English name of a language code, or undefined for codes that name no language. */
function languageName(code: string): string | undefined {
  try {
    return languageNames.of(code);
  } catch {
    return undefined;
  }
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The catalogue's type and range checks, and beyond them values that must name something real. */
export function checkSetting(name: UserSettingName, value: unknown) {
  const problem = settingValueProblem(name, value);
  if (problem) throw badRequest(problem);
  if (name === "timezone" && value !== "" && !isTimeZone(value as string)) throw badRequest(`Invalid timezone '${value}'`);
  if (name === "default_language" && !languageName(value as string)) throw badRequest(`Invalid default_language '${value}'`);
  if (name === "notification_sound" && !NOTIFICATION_SOUNDS.includes(value as string)) throw badRequest(`Invalid notification sound '${value}'`);
}

/** The user's own clients learn of the change; older ones also in the legacy form (spec 6). */
export function announceSettingChange(tx: Tx, user: User, name: UserSettingName, value: unknown) {
  const language = name === "default_language" ? { language_name: languageName(value as string) } : {};
  tx.emit({ type: "user_settings", op: "update", property: name, value, ...language }, [user.id]);
  if (LEGACY_DISPLAY_SETTINGS.includes(name)) tx.emit({ type: "update_display_settings", user: user.email, setting_name: name, setting: value, ...language }, [user.id]);
  if (LEGACY_NOTIFICATION_SETTINGS.includes(name)) tx.emit({ type: "update_global_notifications", user: user.email, notification_name: name, setting: value }, [user.id]);
}

/** Who may now see, or no longer see, the user's real address is told its new API form. */
async function announceAddressVisibility(tx: Tx, before: User, after: User) {
  const realm = await getRealm(tx);
  const changedFor = async (nowVisible: boolean) =>
    (await splitAudienceByAccess(tx, after, realm))
      .seeing.filter((viewer) => canSeeDeliveryEmail(viewer, before) !== canSeeDeliveryEmail(viewer, after) && canSeeDeliveryEmail(viewer, after) === nowVisible)
      .map((viewer) => viewer.id);
  for (const nowVisible of [true, false]) {
    const viewers = await changedFor(nowVisible);
    if (viewers.length === 0) continue;
    const delivery_email = nowVisible ? (after.deliveryEmail ?? after.email) : null;
    const new_email = nowVisible ? after.email : standInEmail(after.id, realmHost(realm));
    tx.emit({ type: "realm_user", op: "update", person: { user_id: after.id, delivery_email } }, viewers);
    tx.emit({ type: "realm_user", op: "update", person: { user_id: after.id, new_email } }, viewers);
    // Clients that compute Gravatars themselves can do so only from an address they may see.
    const avatar = { user_id: after.id, avatar_url: avatarUrl(after), avatar_version: after.avatarVersion };
    tx.emit({ type: "realm_user", op: "update", person: avatar, ...(nowVisible ? { gravatar_computable: true as const } : {}) }, viewers);
  }
}

/**
 * PATCH /settings: the caller's own name, settings and password; only what actually changes is
 * stored and announced. Everything is checked before anything changes, and the new password
 * ends the caller's other browser sessions in the same transaction.
 */
export async function updateOwnSettings(actor: User, input: SettingsInput) {
  const fullName = input.fullName === undefined ? undefined : checkFullName(input.fullName);
  const requested = Object.entries(input.settings) as Array<[UserSettingName, unknown]>;
  for (const [name, value] of requested) checkSetting(name, value);
  const passwordHash = input.password === undefined ? undefined : await newPasswordHash(actor, input.password);
  await write(async (tx) => {
    const user = (await findUserById(tx, actor.id)) ?? actor;
    if (passwordHash !== undefined) {
      await updateUser(tx, user.id, { passwordHash });
      await deleteSessionsOf(tx, user.id, input.password!.keepSessionId);
    }
    if (fullName !== undefined && fullName !== user.fullName) await renameUser(tx, user, fullName);
    const current: UserSettings = { ...defaultUserSettings(), ...user.settings, timezone: user.timezone };
    const changed = requested.filter(([name, value]) => current[name] !== value);
    if (changed.length === 0) return;
    const settings = { ...current, ...Object.fromEntries(changed) } as UserSettings;
    // The time zone is also a column: realm_user objects show it to everyone.
    await updateUser(tx, user.id, { settings, timezone: settings.timezone as string });
    for (const [name, value] of changed) announceSettingChange(tx, user, name, value);
    const names = new Set(changed.map(([name]) => name));
    if (names.has("timezone")) tx.emit({ type: "realm_user", op: "update", person: { user_id: user.id, timezone: settings.timezone as string } }, await usersWhoCanSee(tx, user));
    if (names.has("email_address_visibility")) await announceAddressVisibility(tx, user, { ...user, settings });
    if (names.has("presence_enabled")) {
      // `away` in user_status is this setting negated (spec 2.5): whoever sees the status is told.
      tx.emit({ type: "user_status", user_id: user.id, away: settings.presence_enabled === false }, await usersWhoCanSee(tx, user));
      await presenceSharingChanged(tx, user, settings.presence_enabled !== false);
    }
    // Spec 2.11: turning synchronization off deletes the server's drafts, telling no client.
    if (names.has("enable_drafts_synchronization") && !settings.enable_drafts_synchronization) await deleteDraftsOfUser(tx, user.id);
  });
}
