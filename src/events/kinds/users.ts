import type { ApiBot, ApiUser } from "../../shapes/users";

export interface RealmUserAddEvent {
  type: "realm_user";
  op: "add";
  person: ApiUser;
  /** The person is the "Unknown user" placeholder a guest restricted by can_access_all_users_group gets. */
  inaccessible_user?: true;
}

/**
 * One changed property per event, as the reference lists them; an avatar change carries its
 * four fields together (avatar_source "U" uploaded or "G" Gravatar, and both URLs).
 */
export interface RealmUserUpdateEvent {
  type: "realm_user";
  op: "update";
  person: { user_id: number; new_email?: string; avatar_source?: "G" | "U"; avatar_url_medium?: string } & Partial<
    Pick<ApiUser, "full_name" | "role" | "is_active" | "timezone" | "email" | "delivery_email" | "avatar_url" | "avatar_version">
  >;
  /**
   * The receivers may see the address a Gravatar avatar_url is computed from; the registry
   * sends null instead to client_gravatar clients, and strips the mark.
   */
  gravatar_computable?: true;
}

/** To the bot's owner and the organization administrators only: it carries the API key. */
export interface RealmBotAddEvent {
  type: "realm_bot";
  op: "add";
  bot: ApiBot;
}

/**
 * To the bot's owner and administrators: the bot's ID and what changed (reference: BasicBot);
 * deactivation sends is_active false this way since feature level 222.
 */
export interface RealmBotUpdateEvent {
  type: "realm_bot";
  op: "update";
  bot: { user_id: number } & Partial<Omit<ApiBot, "user_id" | "email" | "bot_type">>;
}

export type RealmBotEvent = RealmBotAddEvent | RealmBotUpdateEvent;

export interface UserSettingsUpdateEvent {
  type: "user_settings";
  op: "update";
  property: string;
  value: unknown;
  language_name?: string;
}

export type UserEvent = RealmUserAddEvent | RealmUserUpdateEvent | RealmBotEvent | UserSettingsUpdateEvent;
