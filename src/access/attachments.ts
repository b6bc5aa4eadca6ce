import { findChannelById } from "../db/channels";
import type { Realm } from "../db/realm";
import type { Reader } from "../db/types";
import { type Attachment, findAttachmentsByPathIds, messagesLinking } from "../db/uploads";
import type { User } from "../db/users";
import { lazyChannelViewer, readableBy } from "./messageReading";

/**
 * Who may download an upload (the reference's validate_attachment_request): its owner, and
 * whoever may read a message that links it. Without an account (a spectator), only when the
 * organization allows spectators and a linking message is in a web-public channel. Everyone
 * else is told the file does not exist, so its URL leaks nothing.
 */
export function mayDownload(db: Reader, viewer: User | null, attachment: Attachment, realm: Realm): boolean {
  if (viewer && attachment.ownerId === viewer.id) return true;
  const linking = messagesLinking(db, attachment.id);
  if (linking.length === 0) return false;
  if (viewer) return linking.some(readableBy(db, lazyChannelViewer(db, viewer), linking));
  if (!realm.settings.enable_spectator_access) return false;
  return linking.some((message) => message.channelId !== null && findChannelById(db, message.channelId)?.isWebPublic === true);
}

/**
 * The uploads named in a message that its sender may link (the reference's
 * do_claim_attachments): their own, and ones they can already download. Links to anything
 * else (someone's private upload, a made-up path) stay plain links.
 */
export function claimableAttachments(db: Reader, sender: User, realm: Realm, pathIds: string[]): Attachment[] {
  return findAttachmentsByPathIds(db, [...new Set(pathIds)]).filter((attachment) => mayDownload(db, sender, attachment, realm));
}
