import type { ReactionType } from "../../model/emoji";

/** A status change: only the fields that were passed (the emoji fields travel together). */
export interface UserStatusEvent {
  type: "user_status";
  user_id: number;
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: ReactionType;
}
