import type { Message } from "../../model/types";

/**
 * Whether the actions menu offers Edit and Delete: the organization's rules as the register
 * gives them. The server decides in the end; this only keeps buttons away that would fail.
 */

export interface EditRules {
  allowEditing: boolean;
  /** Null or 0: no limit. */
  editLimitSeconds: number | null;
  deleteLimitSeconds: number | null;
}

export interface Viewer {
  userId: number;
  isAdmin: boolean;
}

const withinLimit = (message: Message, limit: number | null, nowSeconds: number) => !limit || nowSeconds - message.timestamp < limit;

export function canEdit(message: Message, viewer: Viewer, rules: EditRules, nowSeconds: number): boolean {
  return message.sender_id === viewer.userId && rules.allowEditing && withinLimit(message, rules.editLimitSeconds, nowSeconds);
}

/** Administrators may delete any message; everyone else their own, within the organization's limit. */
export function canDelete(message: Message, viewer: Viewer, rules: EditRules, nowSeconds: number): boolean {
  if (viewer.isAdmin) return true;
  return message.sender_id === viewer.userId && withinLimit(message, rules.deleteLimitSeconds, nowSeconds);
}
