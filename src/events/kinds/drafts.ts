import type { ApiDraft } from "../../shapes/drafts";

/** Draft changes, to the owner's clients only (reference: drafts add, update, remove). */
export type DraftsEvent =
  | { type: "drafts"; op: "add"; drafts: ApiDraft[] }
  | { type: "drafts"; op: "update"; draft: ApiDraft }
  | { type: "drafts"; op: "remove"; draft_id: number };
