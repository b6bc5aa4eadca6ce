import { channelCreationProblems, type NewChannelSettings } from "../access/channelCreation";
import { canAddSubscribers, channelViewer, hasContentAccess } from "../access/channels";
import { checkGroupSettingValue } from "../access/groupSettings";
import { findChannelById, findChannelsByNames, type Channel } from "../db/channels";
import { getRealm } from "../db/realm";
import { writeInSlices, yieldToOthers } from "../db/slices";
import { write } from "../db/transaction";
import type { Reader } from "../db/types";
import { findUsersByEmails, findUsersByIds, normalizeEmail, type User } from "../db/users";
import { badRequest } from "../http/errors";
import {
  CHANNEL_GROUP_SETTINGS,
  CHANNEL_GROUP_SETTING_NAMES,
  type ChannelGroupSettingName,
  MAX_CHANNEL_DESCRIPTION_LENGTH,
  channelNameProblem,
  isHexColor,
  normalizeDescription,
  parseRetentionDays,
} from "../model/channelSettings";
import type { GroupSettingValue } from "../model/groupSetting";
import { postChannelAnnouncements } from "./channelAnnouncements";
import { createChannels } from "./channels";
import { addSubscriptions } from "./subscriptionChanges";

export interface SubscribeRequest {
  subscriptions: Array<{ name: string; description?: string; color?: string }>;
  /** User IDs or API e-mail addresses; none means the caller. */
  principals?: number[] | string[];
  authorizationErrorsFatal: boolean;
  announce: boolean;
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays: string | number;
  groupSettings: Partial<Record<ChannelGroupSettingName, GroupSettingValue>>;
}

export type SubscribeResult = {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
};

/** The people a call names (principals), or the caller. Unknown and deactivated people are refused. */
export async function resolvePrincipals(db: Reader, actor: User, principals: number[] | string[] | undefined): Promise<User[]> {
  if (!principals || principals.length === 0) return [actor];
  const wanted = [...new Set<number | string>(principals.map((p) => (typeof p === "string" ? normalizeEmail(p) : p)))];
  const found = (typeof wanted[0] === "number" ? await findUsersByIds(db, wanted as number[]) : await findUsersByEmails(db, wanted as string[])).filter((user) => user.isActive);
  if (found.length !== wanted.length) throw badRequest("No such user");
  return found;
}

interface RequestedChannel {
  name: string;
  description: string;
  color?: string;
}

/** Trims names, checks names, descriptions and colors, and drops repeated names. */
function requestedChannels(request: SubscribeRequest): RequestedChannel[] {
  const byKey = new Map<string, RequestedChannel>();
  request.subscriptions.forEach((item, i) => {
    const name = item.name.trim();
    const problem = channelNameProblem(name);
    if (problem) throw badRequest(problem);
    if (item.description !== undefined && [...item.description].length > MAX_CHANNEL_DESCRIPTION_LENGTH) {
      throw badRequest(`Channel description too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters).`);
    }
    if (item.color !== undefined && !isHexColor(item.color)) throw badRequest(`subscriptions[${i}].color is not a valid hex color code`);
    if (!byKey.has(name.toLowerCase())) byKey.set(name.toLowerCase(), { name, description: normalizeDescription(item.description ?? ""), color: item.color });
  });
  return [...byKey.values()];
}

async function newChannelSettings(db: Reader, request: SubscribeRequest): Promise<NewChannelSettings> {
  const messageRetentionDays = parseRetentionDays(request.messageRetentionDays);
  if (messageRetentionDays === undefined) throw badRequest(`Bad value for 'message_retention_days': ${request.messageRetentionDays}`);
  const groupSettings: NewChannelSettings["groupSettings"] = {};
  for (const setting of CHANNEL_GROUP_SETTING_NAMES) {
    const value = request.groupSettings[setting];
    if (value !== undefined) groupSettings[setting] = await checkGroupSettingValue(db, setting, value, CHANNEL_GROUP_SETTINGS[setting].rules);
  }
  return {
    inviteOnly: request.inviteOnly,
    isWebPublic: request.isWebPublic,
    historyPublicToSubscribers: request.historyPublicToSubscribers,
    messageRetentionDays,
    isDefault: request.isDefaultStream,
    groupSettings,
  };
}

/** Subscriptions made per step: a few milliseconds. */
const PAIRS_PER_STEP = 500;

/**
 * POST /users/me/subscriptions (spec 4.3): subscribes the caller or the named principals to
 * the named channels, creating the missing ones with the call's settings. Everything is
 * checked, and the missing channels created, in one transaction: any refusal leaves no channel
 * created and nobody subscribed. Then people are subscribed a few at a time, in slices
 * (db/slices.ts), each step with its events (a thousand people to a hundred channels is a
 * hundred thousand subscriptions), and last the new channels are announced. Should that stop
 * half way, asking again subscribes the rest.
 *
 * Refusals that concern the caller (a channel they cannot reach, may not add others to, or
 * may not create) are errors by default; with authorization_errors_fatal=false they leave
 * those channels out and list them in `unauthorized` (spec 4.3, "authorization failures give
 * status 200"), for guests as for everyone. Invalid input stays an error either way.
 */
export async function subscribeUsers(actor: User, request: SubscribeRequest): Promise<SubscribeResult> {
  const { channels, created, targets, colors, unauthorized } = await write(async (tx) => {
    const wanted = requestedChannels(request);
    const settings = await newChannelSettings(tx, request);
    const targets = await resolvePrincipals(tx, actor, request.principals);
    const subscribingOthers = targets.some((user) => user.id !== actor.id);
    const realm = await getRealm(tx);
    const viewer = await channelViewer(tx, actor);
    const fatal = request.authorizationErrorsFatal;

    const existingByKey = new Map((await findChannelsByNames(tx, wanted.map((w) => w.name))).map((c) => [c.nameKey, c]));
    const refused = new Set<string>();
    const refuse = (name: string, error: () => Error) => {
      if (fatal) throw error();
      refused.add(name.toLowerCase());
    };

    let missing = wanted.filter((w) => !existingByKey.has(w.name.toLowerCase()));
    if (missing.length > 0) {
      const problems = channelCreationProblems(viewer, realm, settings);
      const invalid = problems.find((problem) => !problem.authorization);
      if (problems.length > 0 && (fatal || invalid)) throw (invalid ?? problems[0]).error;
      if (problems.length > 0) for (const w of missing) refuse(w.name, () => problems[0].error);
    }

    const existing = wanted.map((w) => existingByKey.get(w.name.toLowerCase())).filter((c): c is Channel => c !== undefined);
    for (const channel of existing) {
      if (!hasContentAccess(viewer, channel)) refuse(channel.name, () => badRequest(`Unable to access channel (${channel.name}).`));
    }
    for (const channel of existing) {
      if (refused.has(channel.nameKey) || !subscribingOthers) continue;
      if (!canAddSubscribers(viewer, channel, realm.settings.can_add_subscribers_group)) refuse(channel.name, () => badRequest("Insufficient permission"));
    }

    missing = missing.filter((w) => !refused.has(w.name.toLowerCase()));
    const authorized = existing.filter((channel) => !refused.has(channel.nameKey));
    const created = await createChannels(tx, actor, missing, settings);
    const channels = [...authorized, ...created];
    const colors = new Map<number, string>();
    for (const w of wanted) {
      const channel = channels.find((c) => c.nameKey === w.name.toLowerCase());
      if (channel && w.color) colors.set(channel.id, w.color);
    }
    const unauthorized = fatal ? undefined : wanted.filter((w) => refused.has(w.name.toLowerCase())).map((w) => existingByKey.get(w.name.toLowerCase())?.name ?? w.name);
    return { channels, created, targets, colors, unauthorized };
  });
  // Each step reads the channels again: they change meanwhile (a channel's first message).
  const current = async (tx: Reader, list: Channel[]) => {
    const found: Channel[] = [];
    for (const channel of list) {
      const fresh = await findChannelById(tx, channel.id);
      if (fresh) found.push(fresh);
    }
    return found;
  };

  const result: SubscribeResult = { subscribed: {}, already_subscribed: {} };
  // A step takes some people and some channels: what it costs grows with both.
  const channelsPerStep = Math.max(1, Math.min(channels.length, Math.ceil(Math.sqrt(PAIRS_PER_STEP))));
  const usersPerStep = Math.max(1, Math.floor(PAIRS_PER_STEP / channelsPerStep));
  const steps: Array<{ users: number; channels: number }> = [];
  for (let users = 0; users < targets.length; users += usersPerStep) {
    for (let first = 0; first < channels.length; first += channelsPerStep) steps.push({ users, channels: first });
  }
  let next = 0;
  // Checking and creating took a while already: let others in before the subscriptions.
  if (steps.length > 1) await yieldToOthers();
  await writeInSlices(async (tx, slice) => {
    const now = new Map((await current(tx, channels)).map((channel) => [channel.id, channel]));
    while (next < steps.length && !slice.over) {
      const step = steps[next++];
      const some = channels.slice(step.channels, step.channels + channelsPerStep).flatMap((channel) => now.get(channel.id) ?? []);
      const changes = await addSubscriptions(tx, some, targets.slice(step.users, step.users + usersPerStep), colors);
      addNamesByUser(result.subscribed, changes.changed);
      addNamesByUser(result.already_subscribed, changes.unchanged);
    }
    return next >= steps.length || undefined;
  });
  // The new channels are announced once their subscribers are in, who so receive the announcement.
  if (created.length > 0) await write(async (tx) => postChannelAnnouncements(tx, actor, await current(tx, created), request.announce));
  if (unauthorized) result.unauthorized = unauthorized;
  return result;
}

function addNamesByUser(result: Record<string, string[]>, pairs: Array<{ user: User; channel: Channel }>) {
  for (const { user, channel } of pairs) (result[user.id] ??= []).push(channel.name);
}
