import type { ApiGroupSettingValue } from "../../shapes/groupSettings";

/**
 * The organization's settings changed (reference: realm update and realm update_dict); to
 * every active account. Which form a setting takes follows the reference: most are `update`,
 * the message-editing limits, upload limits, description, topics policy and every group
 * setting are `update_dict`.
 */
export interface RealmUpdateEvent {
  type: "realm";
  op: "update";
  property: string;
  value: string | boolean | number | null;
}

export interface RealmUpdateDictEvent {
  type: "realm";
  op: "update_dict";
  /** Always "default" (kept by the reference for old clients). */
  property: "default";
  data: Record<string, string | boolean | number | null | ApiGroupSettingValue>;
}

export type RealmEvent = RealmUpdateEvent | RealmUpdateDictEvent;
