import { createHash } from "node:crypto";
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

/** A bot as its owner sees it (reference: components/schemas/Bot). */
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
  services: Array<{ base_url: string; token: string; interface: number }>;
}

export interface UserViewOptions {
  /** The client computes Gravatar URLs itself, so we send null for users without an upload. */
  clientGravatar?: boolean;
}

export function gravatarUrl(user: Pick<User, "email" | "avatarVersion">): string {
  const hash = createHash("md5").update(user.email.toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatarVersion}`;
}

/**
 * Whether viewer may see target's real e-mail, by target's email_address_visibility setting
 * (1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators). Bots' addresses are public.
 */
export function canSeeDeliveryEmail(viewer: Pick<User, "id" | "role">, target: User): boolean {
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

export function userToApi(user: User, viewer: Pick<User, "id" | "role">, options: UserViewOptions = {}): ApiUser {
  const shape: ApiUser = {
    user_id: user.id,
    delivery_email: canSeeDeliveryEmail(viewer, user) ? (user.deliveryEmail ?? user.email) : null,
    email: user.email,
    full_name: user.fullName,
    date_joined: new Date(user.dateJoined * 1000).toISOString(),
    is_active: user.isActive,
    is_owner: user.role === Role.OWNER,
    is_admin: isAdministrator(user.role),
    is_guest: isGuest(user.role),
    is_bot: user.isBot,
    bot_type: user.botType,
    bot_owner_id: user.botOwnerId,
    role: user.role,
    timezone: user.timezone,
    avatar_url: options.clientGravatar ? null : gravatarUrl(user),
    avatar_version: user.avatarVersion,
  };
  if (!user.isBot) shape.profile_data = {};
  return shape;
}

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
    avatar_url: gravatarUrl(bot),
    owner_id: bot.botOwnerId,
    is_active: bot.isActive,
    services: service ? [{ base_url: service.baseUrl, token: service.token, interface: service.interface }] : [],
  };
}
