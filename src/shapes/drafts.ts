import type { Draft, DraftType } from "../db/drafts";

/** The reference's Draft object. */
export interface ApiDraft {
  id: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export const draftToApi = (draft: Draft): ApiDraft => ({ id: draft.id, type: draft.type, to: draft.to, topic: draft.topic, content: draft.content, timestamp: draft.timestamp });
