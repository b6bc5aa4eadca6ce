import type { Attachment, LinkingMessage } from "../db/uploads";

/** The reference's Attachment object: an upload with the messages that link it. */
export interface ApiAttachment {
  id: number;
  name: string;
  path_id: string;
  size: number;
  /** Milliseconds, as the reference gives it. */
  create_time: number;
  messages: Array<{ id: number; date_sent: number }>;
}

export const attachmentToApi = (row: Attachment, linking: LinkingMessage[]): ApiAttachment => ({
  id: row.id,
  name: row.fileName,
  path_id: row.pathId,
  size: row.size,
  create_time: row.createTime * 1000,
  messages: linking.map((message) => ({ id: message.id, date_sent: message.dateSent * 1000 })),
});
