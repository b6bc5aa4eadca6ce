import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { findChannelById } from "../db/channels";
import { directParticipants } from "../db/conversations";
import { Flag, messageRowsByIds } from "../db/messages";
import { bitsOf, marksOf } from "../db/messageState";
import { deleteMissedMessageEmails, dueMissedMessageConversations, missedMessagesOf } from "../db/missedMessageEmails";
import { enqueueOutbox } from "../db/outbox";
import { findRealm, type Realm } from "../db/realm";
import { readServerSetting, serverSettingNow, writeServerSetting } from "../db/serverSettings";
import { read, write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findUserById } from "../db/users";
import type { MissedMessageEmailPayload } from "../db/columnTypes";
import { now } from "../model/clock";
import { encodeHashComponent, messageNarrowUrl } from "../render/urls";
import { escapeHtml } from "../render/plugins/env";
import { plainTextOf } from "../render/plainText";
import { updateOwnSettings } from "./settings";

/**
 * Missed-message e-mail: messages the reference's rules would notify a person of
 * (actions/messageNotifications.ts queues them) that are still unread when the person's batching
 * period is over are mailed, one e-mail per conversation with every message waiting in it, with a
 * link back and a one-click unsubscribe link (RFC 8058). A message read meanwhile is left out,
 * and a conversation whose messages were all read is not mailed. The e-mail goes through the
 * outbox, written in the same write that takes the rows, so a restart loses and repeats nothing.
 */

/** Conversations handled per run: a backlog is worked off over runs, each a short write. */
const CONVERSATIONS_PER_RUN = 200;
const LINK_KEY_SETTING = "email_link_key";

/** Mails what is due; returns how many e-mails were queued. */
export async function mailDueMissedMessages(): Promise<number> {
  const key = await linkKey();
  return await write(async (tx) => {
    const realm = await findRealm(tx);
    if (!realm) return 0;
    let queued = 0;
    for (const { userId, recipientId } of await dueMissedMessageConversations(tx, now(), CONVERSATIONS_PER_RUN)) {
      const rows = await missedMessagesOf(tx, userId, recipientId);
      await deleteMissedMessageEmails(tx, rows.map((row) => row.id));
      const mail = await missedMessageMail(tx, key, realm, userId, recipientId, rows.map((row) => row.messageId));
      if (mail) {
        await enqueueOutbox(tx, { kind: "missed_message_email", payload: mail }, now());
        queued++;
      }
    }
    return queued;
  });
}

async function missedMessageMail(tx: Tx, key: Buffer, realm: Realm, userId: number, recipientId: number, messageIds: number[]): Promise<MissedMessageEmailPayload | null> {
  const user = await findUserById(tx, userId);
  if (!user || !user.isActive) return null;
  const bits = await bitsOf(tx, userId, messageIds);
  const mark = (await marksOf(tx, userId, [recipientId])).get(recipientId) ?? 0;
  const unread = (await messageRowsByIds(tx, messageIds)).filter((message) => {
    const flags = bits.get(message.id) ?? 0;
    return !((flags & Flag.READ) !== 0 || (message.id <= mark && (flags & Flag.UNREAD) === 0));
  });
  if (unread.length === 0) return null;
  const settings = user.settings as { message_content_in_email_notifications?: boolean };
  const showContent = settings.message_content_in_email_notifications !== false && realm.settings.message_content_allowed_in_email_notifications !== false;
  const first = unread[0];
  const senders = new Map<number, string>();
  for (const message of unread) if (!senders.has(message.senderId)) senders.set(message.senderId, (await findUserById(tx, message.senderId))?.fullName ?? "Someone");

  let subject: string;
  let link: string;
  if (first.channelId !== null) {
    const channel = await findChannelById(tx, first.channelId);
    const name = channel?.name ?? "a channel";
    subject = `#${name} > ${first.topic || "general chat"}`;
    link = `${realm.url}${messageNarrowUrl(first.channelId, name, first.topic, first.id)}`;
  } else {
    const others = ((await directParticipants(tx, [recipientId])).get(recipientId) ?? []).filter((id) => id !== userId).sort((a, b) => a - b);
    subject = others.length > 1 ? `Group DMs with ${[...senders.values()].join(", ")}` : `DMs with ${[...senders.values()].join(", ")}`;
    link = `${realm.url}/#narrow/dm/${encodeHashComponent(others.join(","))}${others.length > 1 ? "-group" : ""}/near/${first.id}`;
  }
  const unsubscribeUrl = `${realm.url}/accounts/unsubscribe/missed_messages/${unsubscribeToken(key, userId)}`;
  const when = (seconds: number) => new Date(seconds * 1000).toUTCString();

  const textParts = unread.map((message) => `${senders.get(message.senderId)} (${when(message.dateSent)}):\n${showContent ? plainTextOf(message.renderedContent ?? "", "\n") : "(the message's content is not shown in e-mails)"}`);
  const text = [
    `You have ${unread.length === 1 ? "a message" : `${unread.length} messages`} you have not read in ${realm.name}:`,
    "",
    textParts.join("\n\n"),
    "",
    `Read and reply: ${link}`,
    "",
    `You get this e-mail because of your notification settings in ${realm.name}. To stop e-mails about messages you missed: ${unsubscribeUrl}`,
    "",
  ].join("\n");
  const htmlParts = unread
    .map((message) => `<div style="margin:0 0 16px"><p style="margin:0;color:#555"><b>${escapeHtml(senders.get(message.senderId) ?? "")}</b> · ${escapeHtml(when(message.dateSent))}</p>${showContent ? `<div>${message.renderedContent ?? ""}</div>` : `<p><i>The message's content is not shown in e-mails.</i></p>`}</div>`)
    .join("");
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>You have ${unread.length === 1 ? "a message" : `${unread.length} messages`} you have not read in ${escapeHtml(realm.name)}:</p>
${htmlParts}
<p><a href="${escapeHtml(link)}">Read and reply</a></p>
<p style="color:#777;font-size:12px">You get this e-mail because of your notification settings in ${escapeHtml(realm.name)}. <a href="${escapeHtml(unsubscribeUrl)}">Stop e-mails about messages you missed</a>.</p>
</body></html>`;
  return { user_id: userId, to: user.deliveryEmail ?? user.email, subject, text, html, unsubscribe_url: unsubscribeUrl };
}

// ---- Unsubscribing ----

/** The key the unsubscribe links are signed with: made once, kept, the same on every node. */
async function linkKey(): Promise<Buffer> {
  const stored = await read((db) => serverSettingNow<string>(db, LINK_KEY_SETTING));
  if (stored) return Buffer.from(stored, "base64url");
  return await write(async (tx) => {
    const first = await readServerSetting<string>(tx, LINK_KEY_SETTING);
    if (first) return Buffer.from(first, "base64url");
    const made = randomBytes(32);
    await writeServerSetting(tx, LINK_KEY_SETTING, made.toString("base64url"));
    return made;
  });
}

const signature = (key: Buffer, userId: number) => createHmac("sha256", key).update(`missed-messages.${userId}`).digest("base64url");

/** "userId.signature": whoever has the e-mail may turn these e-mails off, and nothing else. */
export const unsubscribeToken = (key: Buffer, userId: number) => `${userId}.${signature(key, userId)}`;

/** The user a token names, when it is genuine. */
async function userOfToken(token: string): Promise<number | null> {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const stored = await read((db) => serverSettingNow<string>(db, LINK_KEY_SETTING));
  if (!stored) return null;
  const expected = Buffer.from(signature(Buffer.from(stored, "base64url"), Number(match[1])));
  const given = Buffer.from(match[2]);
  return given.length === expected.length && timingSafeEqual(given, expected) ? Number(match[1]) : null;
}

/** Whether a token from an e-mail is genuine (the unsubscribe page asks before it acts). */
export const isUnsubscribeToken = async (token: string) => (await userOfToken(token)) !== null;

/** Turns the user's missed-message e-mails off; false for a token that is not genuine. */
export async function unsubscribeFromMissedMessageEmails(token: string): Promise<boolean> {
  const userId = await userOfToken(token);
  if (userId === null) return false;
  const user = await read((db) => findUserById(db, userId));
  if (!user) return false;
  await updateOwnSettings(user, { settings: { enable_offline_email_notifications: false } });
  return true;
}
