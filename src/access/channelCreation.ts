import type { Realm } from "../db/realm";
import { type ApiError, badRequest, ownerRequired } from "../http/errors";
import type { ChannelGroupSettingName } from "../model/channelSettings";
import type { GroupSettingValue } from "../model/groupSetting";
import type { RealmGroupSettingName } from "../model/realmSettings";
import { isAdministrator, isOwner } from "../model/roles";
import type { ChannelViewer } from "./channels";
import { holdsPermission } from "./groupSettings";

/** Settings a new channel takes from the subscribe call that creates it (spec 4.3). */
export interface NewChannelSettings {
  inviteOnly: boolean;
  isWebPublic: boolean;
  /** undefined: public channels share history, private ones do not. */
  historyPublicToSubscribers: boolean | undefined;
  messageRetentionDays: number | null;
  isDefault: boolean;
  /** Values already checked; settings left out take the channel defaults. */
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>>;
}

/** Realm-wide channel permissions are never held by guests (they do not allow role:everyone). */
export const holdsRealmPermission = (viewer: ChannelViewer, realm: Realm, setting: RealmGroupSettingName) =>
  holdsPermission(viewer.user, realm.settings[setting], { allowInternet: false, allowNobody: true, allowEveryone: false }, viewer.groupIds);

/** Web-public channels need the server setting (always on here) and spectator access. */
export function requireWebPublicAllowed(viewer: ChannelViewer, realm: Realm) {
  if (!realm.settings.enable_spectator_access) throw badRequest("Web-public channels are not enabled.");
  if (!holdsRealmPermission(viewer, realm, "can_create_web_public_channel_group")) throw badRequest("Insufficient permission");
}

/** One reason channels cannot be created; `authorization` when it is about who asks, not what. */
export interface CreationProblem {
  error: ApiError;
  authorization: boolean;
}

/** Everything that stops this user creating channels with these settings, in the order told. */
export function channelCreationProblems(viewer: ChannelViewer, realm: Realm, settings: NewChannelSettings): CreationProblem[] {
  const problems: CreationProblem[] = [];
  const refuse = (error: ApiError) => problems.push({ error, authorization: true });
  const invalid = (message: string) => problems.push({ error: badRequest(message), authorization: false });
  const privacySetting = settings.inviteOnly ? "can_create_private_channel_group" : "can_create_public_channel_group";
  if (!holdsRealmPermission(viewer, realm, privacySetting)) refuse(badRequest("Insufficient permission"));
  if (settings.isDefault && !isAdministrator(viewer.user.role)) refuse(badRequest("Insufficient permission"));
  if (settings.inviteOnly && settings.isDefault) invalid("A default channel cannot be private.");
  if (settings.isWebPublic) {
    if (settings.inviteOnly) invalid("A web-public channel cannot be private.");
    if (!realm.settings.enable_spectator_access) invalid("Web-public channels are not enabled.");
    else if (!holdsRealmPermission(viewer, realm, "can_create_web_public_channel_group")) refuse(badRequest("Insufficient permission"));
  }
  // The reference's OrganizationOwnerRequiredError.
  if (settings.messageRetentionDays !== null && !isOwner(viewer.user.role)) refuse(ownerRequired());
  return problems;
}

/** May this user create channels with these settings? Throws the first reason why not. */
export function checkChannelCreation(viewer: ChannelViewer, realm: Realm, settings: NewChannelSettings) {
  const [first] = channelCreationProblems(viewer, realm, settings);
  if (first) throw first.error;
}
