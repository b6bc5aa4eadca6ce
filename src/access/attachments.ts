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
export async function mayDownload(db: Reader, viewer: User | null, attachment: Attachment, realm: Realm): Promise<boolean> {
  if (viewer && attachment.ownerId === viewer.id) return true;
  const linking = await messagesLinking(db, attachment.id);
  if (linking.length === 0) return false;
  if (viewer) return linking.some(await readableBy(db, await lazyChannelViewer(db, viewer), linking));
  if (!realm.settings.enable_spectator_access) return false;
  for (const message of linking) {
    if (message.channelId !== null && (await findChannelById(db, message.channelId))?.isWebPublic === true) return true;
  }
  return false;
}

/**
 * The uploads named in a message that its sender may link (the reference's
 * do_claim_attachments): their own, and ones they can already download. Links to anything
 * else (someone's private upload, a made-up path) stay plain links.
 */
export async function claimableAttachments(db: Reader, sender: User, realm: Realm, pathIds: string[]): Promise<Attachment[]> {
  const claimable: Attachment[] = [];
  for (const attachment of await findAttachmentsByPathIds(db, [...new Set(pathIds)])) {
    if (await mayDownload(db, sender, attachment, realm)) claimable.push(attachment);
  }
  return claimable;
}
