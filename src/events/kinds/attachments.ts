import type { ApiAttachment } from "../../shapes/attachments";

/**
 * Changes to a user's uploads, for their own clients only: an upload added, its list of
 * linking messages changed, or the upload deleted. Each says how much the organization's
 * uploads now take (upload_space_used, in bytes).
 */
export type AttachmentEvent =
  | { type: "attachment"; op: "add" | "update"; attachment: ApiAttachment; upload_space_used: number }
  | { type: "attachment"; op: "remove"; attachment: { id: number }; upload_space_used: number };
