import { createHash } from "node:crypto";
import { accessChannel } from "../access/channels";
import type { Channel } from "../db/channels";
import { getRealm, realmHost, type Realm } from "../db/realm";
import { read } from "../db/transaction";
import type { Reader } from "../db/types";
import { findUserById, type User } from "../db/users";
import { badRequest } from "../http/errors";

/**
 * GET /streams/{stream_id}/email_address (reference: get-stream-email-address). Parley has no
 * e-mail gateway: the address has the reference's form, `name.token.show-sender@host`, and is
 * stable for a channel and sender, but mail sent to it is not delivered anywhere (docs/FEATURES.md).
 *
 * The token is derived from the channel and the sender rather than stored: nothing reads it
 * back, since nothing receives mail. Senders are as the reference allows: the caller, a bot the
 * caller owns, or (the default) the e-mail gateway, which here is only a name.
 */

const GATEWAY = "gateway";

export function getChannelEmailAddress(viewer: User, channelId: number, senderId: number | undefined): Promise<string> {
  return read(async (db) => {
    const { channel } = await accessChannel(db, viewer, channelId, "content");
    const sender = senderId === undefined ? GATEWAY : await allowedSender(db, viewer, senderId);
    const realm = await getRealm(db);
    const name = addressName(channel.name);
    const token = addressToken(realm, channel, sender);
    return `${name === "" ? "" : `${name}.`}${token}.show-sender@${realmHost(realm)}`;
  });
}

/** The caller or one of their active bots; anyone else is refused without saying who exists. */
async function allowedSender(db: Reader, viewer: User, senderId: number): Promise<number> {
  if (senderId === viewer.id) return senderId;
  const sender = await findUserById(db, senderId);
  if (!sender || !sender.isActive) throw badRequest("Invalid user ID");
  if (!sender.isBot || sender.botOwnerId !== viewer.id) throw badRequest("Insufficient permission");
  return senderId;
}

/**
 * The reference's scheme: runs of non-word characters become one hyphen, then the name is
 * turned into lower-case ASCII; if that lost letters (a name in another script), the name part
 * is left out rather than mangled.
 */
export function addressName(channelName: string): string {
  const hyphenated = channelName.replace(/[^\p{L}\p{N}_]+/gu, "-");
  const slug = hyphenated
    .normalize("NFKD")
    .replace(/[^\x00-\x7f]/g, "")
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .replace(/[-\s]+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "");
  return slug.length < hyphenated.length ? "" : slug;
}

/** 32 hex digits, as the reference's tokens, fixed for this organization, channel and sender. */
function addressToken(realm: Realm, channel: Channel, sender: number | typeof GATEWAY): string {
  return createHash("sha256").update(`channel-email|${realm.url}|${realm.dateCreated}|${channel.id}|${channel.dateCreated}|${sender}`).digest("hex").slice(0, 32);
}
