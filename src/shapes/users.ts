import { createHash } from "node:crypto";
import { REALM_ID } from "../db/realm";
import type { BotService, User } from "../db/users";
import { Role, isAdministrator, isModerator, isGuest } from "../model/roles";

/** A user as the API shows it (reference: components/schemas/User). */
export interface ApiUser {
  user_id: number;
  delivery_email: string | null;
  email: string;
  full_name: string;
  date_joined: string;
  is_active: boolean;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  role: number;
  timezone: string;
  avatar_url: string | null;
  avatar_version: number;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

export interface ApiBotService {
  base_url: string;
  token: string;
  interface: number;
}

/** A bot as its owner and administrators see it (reference: components/schemas/Bot). */
export interface ApiBot {
  user_id: number;
  full_name: string;
  api_key: string;
  email: string;
  bot_type: number | null;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  avatar_url: string;
  owner_id: number | null;
  is_active: boolean;
  services: ApiBotService[];
}

export type Viewer = Pick<User, "id" | "role">;

/** Who is looking, and how they asked to see users. */
export interface UserView {
  viewer: Viewer;
  /** Domain of the stand-in address shown to viewers who may not see someone's real one. */
  realmHost: string;
  /** The client computes Gravatar URLs itself, so we send null where it can. */
  clientGravatar?: boolean;
  /** Include profile_data (custom profile fields) for humans; the original omits it unless asked. */
  profileData?: boolean;
}

// Hashing an address costs more than the rest of a user's shape, and message lists ask for
// the same few senders' avatars over and over.
const gravatarHashes = new Map<string, string>();

export function gravatarUrl(user: Pick<User, "email" | "avatarVersion">): string {
  const email = user.email.toLowerCase();
  let hash = gravatarHashes.get(email);
  if (hash === undefined) {
    if (gravatarHashes.size >= 10_000) gravatarHashes.clear();
    gravatarHashes.set(email, (hash = createHash("md5").update(email).digest("hex")));
  }
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatarVersion}`;
}

type AvatarOwner = Pick<User, "email" | "avatarVersion" | "avatarFile">;

/**
 * Where uploaded avatars are served (routes/avatars.ts), beside the realm's custom emoji as in
 * the original; a file's name is the bytes' SHA-256, so it never changes meaning.
 */
export const AVATAR_IMAGES_PATH = `/user_avatars/${REALM_ID}`;

/**
 * The avatar every API answer names: the uploaded image (a URL relative to the server, as the
 * reference allows), or else the Gravatar. Only the Gravatar may be left for the client to compute.
 */
export const avatarUrl = (user: AvatarOwner): string => (user.avatarFile ? `${AVATAR_IMAGES_PATH}/${user.avatarFile}` : gravatarUrl(user));

/** The settings-page size: the same uploaded image (Parley keeps one size), or the Gravatar at 500 px. */
export const avatarUrlMedium = (user: AvatarOwner): string => (user.avatarFile ? avatarUrl(user) : `${gravatarUrl(user)}&s=500`);

/** The reference's avatar_source: "U" uploaded by the user, "G" Gravatar. */
export const avatarSource = (user: Pick<User, "avatarFile">): "U" | "G" => (user.avatarFile ? "U" : "G");

/**
 * Whether viewer may see target's real e-mail, by target's email_address_visibility setting
 * (1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators). Bots' addresses are public.
 */
export function canSeeDeliveryEmail(viewer: Viewer, target: User): boolean {
  if (target.isBot || viewer.id === target.id) return true;
  switch (target.settings.email_address_visibility) {
    case 1:
      return true;
    case 2:
      return !isGuest(viewer.role);
    case 3:
      return isAdministrator(viewer.role);
    case 5:
      return isModerator(viewer.role);
    default:
      return false;
  }
}

/** The address that works in the API without revealing the real one (reference: `user{id}@{realm host}`). */
export const standInEmail = (userId: number, realmHost: string) => `user${userId}@${realmHost}`;

/** The ID inside a stand-in address for this realm, or null if the address is not one. */
export function userIdOfStandInEmail(email: string, realmHost: string): number | null {
  const match = /^user(\d+)@(.+)$/i.exec(email.trim());
  if (!match || match[2].toLowerCase() !== realmHost.toLowerCase()) return null;
  return Number(match[1]);
}

/** The original server writes microseconds and an explicit offset; clients parse either. */
const isoTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace("Z", "+00:00");

export function userToApi(user: User, view: UserView): ApiUser {
  const visible = canSeeDeliveryEmail(view.viewer, user);
  const shape: ApiUser = {
    user_id: user.id,
    delivery_email: visible ? (user.deliveryEmail ?? user.email) : null,
    email: visible ? user.email : standInEmail(user.id, view.realmHost),
    full_name: user.fullName,
    date_joined: isoTime(user.dateJoined),
    is_active: user.isActive,
    is_owner: user.role === Role.OWNER,
    is_admin: isAdministrator(user.role),
    is_guest: isGuest(user.role),
    is_bot: user.isBot,
    bot_type: user.botType,
    bot_owner_id: user.botOwnerId,
    role: user.role,
    timezone: user.timezone,
    // The client can only compute a Gravatar, and only from an address it is allowed to see.
    avatar_url: view.clientGravatar && visible && !user.avatarFile ? null : avatarUrl(user),
    avatar_version: user.avatarVersion,
  };
  if (!user.isBot && (view.profileData ?? true)) shape.profile_data = {};
  return shape;
}

export const serviceToApi = (service: BotService): ApiBotService => ({ base_url: service.baseUrl, token: service.token, interface: service.interface });

export function botToApi(bot: User, service: BotService | undefined): ApiBot {
  return {
    user_id: bot.id,
    full_name: bot.fullName,
    api_key: bot.apiKey,
    email: bot.email,
    bot_type: bot.botType,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    avatar_url: avatarUrl(bot),
    owner_id: bot.botOwnerId,
    is_active: bot.isActive,
    services: service ? [serviceToApi(service)] : [],
  };
}

/**
 * The bot's configuration file in the zuliprc format the original's web app downloads: an
 * [api] section, with the outgoing-webhook token there too (the Botserver reads it from there).
 */
export function botZuliprc(bot: User, siteUrl: string, service: BotService | undefined): string {
  const lines = ["[api]", `email=${bot.email}`, `key=${bot.apiKey}`, `site=${siteUrl}`];
  if (service) lines.push(`token=${service.token}`);
  // Some tools do not read a file without a final newline.
  return `${lines.join("\n")}\n`;
}
