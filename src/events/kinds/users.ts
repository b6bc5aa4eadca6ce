import type { ApiBot, ApiUser } from "../../shapes/users";

export interface RealmUserAddEvent {
  type: "realm_user";
  op: "add";
  person: ApiUser;
}

export interface RealmUserUpdateEvent {
  type: "realm_user";
  op: "update";
  person: { user_id: number } & Partial<Pick<ApiUser, "full_name" | "role" | "is_active" | "timezone" | "email" | "delivery_email" | "avatar_url" | "avatar_version">>;
}

export interface RealmBotEvent {
  type: "realm_bot";
  op: "add" | "update" | "delete" | "remove";
  bot: Partial<ApiBot> & { user_id: number };
}

export interface UserSettingsUpdateEvent {
  type: "user_settings";
  op: "update";
  property: string;
  value: unknown;
  language_name?: string;
}

export type UserEvent = RealmUserAddEvent | RealmUserUpdateEvent | RealmBotEvent | UserSettingsUpdateEvent;
