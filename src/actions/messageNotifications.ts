import { findChannelById, subscriptionsOf } from "../db/channels";
import { directParticipants } from "../db/conversations";
import { flagBitsOnMessage, readMarksOfUsers } from "../db/flagRows";
import { Flag, messageRowsByIds } from "../db/messages";
import { storeBitsOfUsers } from "../db/messageState";
import { mutersOf } from "../db/mutedUsers";
import { queueWebPushes } from "./webPushQueueing";
import { storedPresence } from "../db/presenceStore";
import { writeUpkeep } from "../db/transaction";
import { topicKeyOf, topicPoliciesAmong } from "../db/userTopics";
import { findRealm } from "../db/realm";
import { findUserById, settingsOfActiveHumans } from "../db/users";
import { webPushSubscriptionsOfUsers } from "../db/webPushSubscriptions";
import type { MessageNotificationsPayload } from "../db/columnTypes";
import { queueMissedMessageEmails } from "../db/missedMessageEmails";
import { now } from "../model/clock";
import { plainTextOf } from "../render/plainText";
import { PushFlag, pushReason, type PushReason, type PushSettings } from "../model/pushTriggers";

/**
 * The outbox's message_notifications item (queued by a send, actions/messageNotificationQueue.ts)
 * decides, by the reference's rules (model/pushTriggers.ts), who hears of the message when not
 * looking: one web_push item per subscription of each person it pushes for, and a missed-message
 * e-mail waiting for each person it would mail (sent after their batching period if the message
 * is still unread then: actions/missedMessageEmails.ts). Decided now, moments after the send,
 * when the message may already have been read. One write, so a crash before it commits leaves the
 * message's item to be tried again, and one after it is never repeated (the item is then marked
 * sent; should that mark be lost, the pushes would go twice and the e-mail rows once).
 */

/** Seen active this recently: another client is in use (Zulip's offline threshold). */
const ONLINE_WITHIN_SECONDS = 140;
const SNIPPET_CHARACTERS = 200;
const URGENT: ReadonlySet<PushReason> = new Set(["direct_message", "mentioned"]);
/**
 * What is mailed: what concerns the person themself. The send names only those recipients
 * (actions/messageNotificationQueue.ts), so followed topics and channels set to e-mail are not
 * mailed yet: knowing who follows a topic would cost every send a lookup.
 */
const MAILED: ReadonlySet<PushReason> = new Set(["direct_message", "mentioned", "wildcard_mentioned", "alert_word"]);
/** The reference's email_notifications_batching_period_seconds default. */
const DEFAULT_BATCHING_SECONDS = 120;
/** How long a push service keeps a push for a device that is away: a day, or a week when urgent. */
const TTL_SECONDS = { high: 7 * 24 * 3600, normal: 24 * 3600 };

function snippet(html: string): string {
  const text = plainTextOf(html, " ");
  return text.length <= SNIPPET_CHARACTERS ? text : `${text.slice(0, SNIPPET_CHARACTERS - 1)}…`;
}

export async function notifyOfMessage(item: MessageNotificationsPayload, options: { emailDelayCapSeconds: number | null }): Promise<number> {
  // An upkeep write: what it changes (outbox items, waiting e-mails, the pushed bit of flags) is
  // in none of the in-memory copies, so they stay valid, here and on the other nodes.
  return await writeUpkeep(async (tx) => {
    const [message] = await messageRowsByIds(tx, [item.message_id]);
    if (!message) return 0;
    const subscriptions = await webPushSubscriptionsOfUsers(tx, item.user_ids);
    const pushable = new Set(subscriptions.map((row) => row.userId));
    const settings = new Map((await settingsOfActiveHumans(tx, item.user_ids)).map((user) => [user.id, user.settings as PushSettings & { email_notifications_batching_period_seconds?: number }]));
    // Bots and deactivated accounts hear of nothing.
    const userIds = item.user_ids.filter((id) => settings.has(id));
    if (userIds.length === 0) return 0;
    const sender = await findUserById(tx, message.senderId);
    const bits = await flagBitsOnMessage(tx, message.id);
    const marks = await readMarksOfUsers(tx, message.recipientId, userIds);
    const muters = new Set(await mutersOf(tx, message.senderId));
    const channelId = message.channelId;
    const channel = channelId === null ? undefined : await findChannelById(tx, channelId);
    const channelSettings = channelId === null ? new Map() : new Map((await subscriptionsOf(tx, userIds, [channelId])).map((row) => [row.userId, row]));
    const policies = channelId === null ? new Map<number, number>() : await topicPoliciesAmong(tx, userIds, channelId, message.topic);
    const participants = channelId === null ? ((await directParticipants(tx, [message.recipientId])).get(message.recipientId) ?? []) : [];
    const at = now();

    const conversation = channel ? { kind: "channel", channel_id: channel.id, topic: message.topic } : { kind: "dm", user_ids: [...participants].sort((a, b) => a - b) };
    const tag = channel ? `channel:${channel.id}:${topicKeyOf(message.topic)}` : `dm:${message.recipientId}`;
    const senderName = sender?.fullName ?? "Someone";
    const title = channel ? `#${channel.name} › ${message.topic || "general chat"}: ${senderName}` : participants.length > 2 ? `${senderName} (to you and ${participants.length - 2} more)` : senderName;
    // Where the organization keeps content out of notifications, the push says who and where only.
    const contentAllowed = (await findRealm(tx))?.settings.message_content_allowed_in_email_notifications !== false;
    const body = contentAllowed ? snippet(message.renderedContent ?? "") : "";

    let queued = 0;
    const pushes = new Map<string, { data: string; urgency: "high" | "normal"; ids: number[] }>();
    const pushed: Array<{ userId: number; message: typeof message; bits: number }> = [];
    const mailed: Array<{ userId: number; messageId: number; recipientId: number; reason: string; dueAt: number }> = [];
    for (const userId of userIds) {
      const flags = bits.get(userId) ?? 0;
      const mark = marks.get(userId) ?? 0;
      const read = (flags & PushFlag.READ) !== 0 || (mark >= message.id && (flags & PushFlag.UNREAD) === 0);
      const subscription = channelSettings.get(userId);
      const facts = {
        direct: channel === undefined,
        flags,
        read,
        senderMuted: muters.has(userId),
        online: (storedPresence(userId)?.activeTime ?? 0) >= at - ONLINE_WITHIN_SECONDS,
        settings: settings.get(userId) ?? {},
        channel: subscription ? { muted: subscription.isMuted, pushNotifications: subscription.pushNotifications, emailNotifications: subscription.emailNotifications, wildcardMentionsNotify: subscription.wildcardMentionsNotify } : undefined,
        topicPolicy: policies.get(userId),
      };
      const mailedFor = pushReason(facts, "email");
      if (mailedFor !== null && MAILED.has(mailedFor)) {
        const period = Number(settings.get(userId)?.email_notifications_batching_period_seconds ?? DEFAULT_BATCHING_SECONDS);
        const delay = options.emailDelayCapSeconds === null ? period : Math.min(period, options.emailDelayCapSeconds);
        mailed.push({ userId, messageId: message.id, recipientId: message.recipientId, reason: mailedFor, dueAt: at + delay });
      }
      const reason = pushable.has(userId) ? pushReason(facts) : null;
      if (reason === null) continue;
      // Marked, so that reading it anywhere withdraws the notification (actions/webPushWithdrawal.ts).
      pushed.push({ userId, message, bits: flags | Flag.PUSHED });
      const urgency = URGENT.has(reason) ? "high" : "normal";
      const data = JSON.stringify({ kind: "message", message_id: message.id, title, body, conversation, tag, reason, icon: null });
      const key = `${urgency}\u0000${data}`;
      const group = pushes.get(key) ?? pushes.set(key, { data, urgency, ids: [] }).get(key)!;
      group.ids.push(...subscriptions.filter((row) => row.userId === userId).map((row) => row.id));
    }
    // One item per push service for everyone who gets the same push: a message to a thousand
    // people is a handful of rows, not a thousand (actions/webPushQueueing.ts).
    for (const { data, urgency, ids } of pushes.values()) queued += await queueWebPushes(tx, subscriptions.filter((row) => ids.includes(row.id)), { data, urgency, ttl: TTL_SECONDS[urgency] }, at);
    await storeBitsOfUsers(tx, pushed);
    await queueMissedMessageEmails(tx, mailed);
    return queued + mailed.length;
  });
}
