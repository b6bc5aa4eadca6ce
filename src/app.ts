import { configureMessageNotifications } from "./outbox/webPush";
import { Elysia } from "elysia";
import { configureTopicDeletion } from "./actions/deleteTopic";
import { configureMarkAllAsRead } from "./actions/messageFlags";
import { configureInvitations } from "./actions/invites";
import { configureSmtpDelivery } from "./actions/smtpSettings";
import { configurePresenceTiming } from "./model/presence";
import { createRenderContext } from "./render/context";
import { warmUpRenderer } from "./render/markdown";
import type { Config } from "./config";
import { onCommit } from "./db/transaction";
import { publish, startEventQueues, stopEventQueues } from "./events/registry";
import { startJobs } from "./jobs";
import { configureOutgoingWebhooks } from "./outbox/webhooks";
import { configureOutboundPolicy } from "./net/outboundPolicy";
import { mailConfigured, sendMailNow, testMail } from "./outbox/mail";
import { nudgeOutbox } from "./outbox/runner";
import { conventions } from "./http/conventions";
import { configureRateLimits } from "./http/requestLimits";
import { alertWordRoutes } from "./routes/alertWords";
import { authRoutes } from "./routes/auth";
import { botRoutes } from "./routes/bots";
import { channelRoutes } from "./routes/channels";
import { deactivationRoutes } from "./routes/deactivation";
import { draftRoutes } from "./routes/drafts";
import { emojiFileRoutes } from "./routes/emojiFiles";
import { inviteRoutes } from "./routes/invites";
import { eventQueueRoutes } from "./routes/eventQueues";
import { linkifierRoutes } from "./routes/linkifiers";
import { messageEditRoutes } from "./routes/messageEdits";
import { messageFlagRoutes } from "./routes/messageFlags";
import { messageReadingRoutes } from "./routes/messageReading";
import { messageRoutes } from "./routes/messages";
import { mutedUserRoutes } from "./routes/mutedUsers";
import { presenceRoutes } from "./routes/presence";
import { pushDeviceRoutes } from "./routes/pushDevices";
import { webPushSubscriptionRoutes } from "./routes/webPushSubscriptions";
import { reactionRoutes } from "./routes/reactions";
import { realmDefaultsRoutes } from "./routes/realmDefaults";
import { realmEmojiRoutes } from "./routes/realmEmoji";
import { savedSnippetRoutes } from "./routes/savedSnippets";
import { scheduledMessageRoutes } from "./routes/scheduledMessages";
import { serverRoutes } from "./routes/server";
import { settingsRoutes } from "./routes/settings";
import { subscriptionRoutes } from "./routes/subscriptions";
import { typingRoutes } from "./routes/typing";
import { uploadFileRoutes, uploadRoutes } from "./routes/uploads";
import { userGroupRoutes } from "./routes/userGroups";
import { userRoutes } from "./routes/users";
import { userTopicRoutes } from "./routes/userTopics";
import { readReceiptRoutes } from "./routes/readReceipts";
import { profileFieldRoutes } from "./routes/profileFields";
import { userStatusRoutes } from "./routes/userStatus";
import { botStorageRoutes } from "./routes/botStorage";
import { channelEmailAddressRoutes } from "./routes/channelEmailAddress";
import { clientDeviceRoutes } from "./routes/clientDevices";
import { messageEditHistoryRoutes } from "./routes/messageEditHistory";
import { messageRenderRoutes } from "./routes/messageRender";
import { topicRoutes } from "./routes/topics";
import { webRoutes } from "./web/routes";
import { sessionRoutes } from "./routes/sessions";
import { realmSettingsRoutes } from "./routes/realmSettings";
import { smtpSettingsRoutes } from "./routes/smtpSettings";
import { serverStatusRoutes } from "./routes/serverStatus";
import { passwordResetRoutes } from "./routes/passwordResets";
import { apiKeyRoutes } from "./routes/apiKeys";
import { avatarFileRoutes, avatarRoutes } from "./routes/avatars";
import { metricsRoutes } from "./routes/metrics";
import { healthRoutes } from "./routes/health";
import { configureHealth } from "./reads/health";

/** The one place routes and plugins are wired together; tests and `parley serve` both use it. */
export function createApp() {
  onCommit(publish);
  const api = new Elysia({ prefix: "/api/v1" }).use(serverRoutes).use(authRoutes).use(userRoutes).use(botRoutes).use(eventQueueRoutes).use(settingsRoutes).use(realmDefaultsRoutes).use(draftRoutes).use(deactivationRoutes).use(channelRoutes).use(subscriptionRoutes).use(messageRoutes).use(messageReadingRoutes).use(messageFlagRoutes).use(messageEditRoutes).use(reactionRoutes).use(linkifierRoutes).use(savedSnippetRoutes).use(userStatusRoutes).use(typingRoutes).use(pushDeviceRoutes).use(webPushSubscriptionRoutes).use(userGroupRoutes).use(scheduledMessageRoutes);
  api.use(inviteRoutes);
  api.use(topicRoutes).use(messageEditHistoryRoutes).use(messageRenderRoutes).use(channelEmailAddressRoutes).use(botStorageRoutes).use(clientDeviceRoutes);
  api.use(userTopicRoutes).use(readReceiptRoutes).use(profileFieldRoutes);
  api.use(alertWordRoutes).use(mutedUserRoutes);
  api.use(realmEmojiRoutes);
  api.use(presenceRoutes);
  api.use(uploadRoutes);
  api.use(sessionRoutes).use(realmSettingsRoutes).use(smtpSettingsRoutes).use(serverStatusRoutes).use(passwordResetRoutes).use(apiKeyRoutes).use(avatarRoutes);
  // Unknown properties are dropped by TypeBox's Clean, which walks a schema, rather than by
  // Elysia's default exact-mirror, which compiles a function for each: over every route's
  // schemas that is 8 MB that stays once the routes have been called (bench/README.md,
  // bench:memory-load), for no change the send benchmark can see.
  return new Elysia({ normalize: "typebox" }).use(conventions).use(api).use(emojiFileRoutes).use(uploadFileRoutes).use(avatarFileRoutes).use(metricsRoutes).use(healthRoutes).use(webRoutes);
}

export type App = ReturnType<typeof createApp>;

/**
 * Everything a serving process runs besides answering requests, started once it listens: the
 * settings actions read, the event queues saved by the last clean stop, and every timer
 * (jobs/). `announced` resolves once what the jobs say at start has been logged (the start line
 * comes after it). The returned stop() runs after the server stopped taking requests, so no
 * event is published after the queues are saved.
 */
export function startBackground(config: Config): { stop(): Promise<void>; announced: Promise<void> } {
  configureRateLimits(config.rateLimits);
  configurePresenceTiming({ pingIntervalSeconds: config.presencePingIntervalSeconds, offlineThresholdSeconds: config.presenceOfflineThresholdSeconds });
  configureTopicDeletion({ budgetMs: config.deleteTopicBudgetMs, batchSize: config.deleteTopicBatchSize });
  configureMarkAllAsRead(config.markAllReadBudgetMs);
  if (config.rendererWarmUp) warmUpRenderer(createRenderContext());
  configureInvitations({ defaultValidityMinutes: config.invitationLinkValidityMinutes, mailConfigured });
  configureSmtpDelivery({ sendTest: (smtp, to) => sendMailNow(smtp, testMail(to, smtp)), settingsChanged: () => void nudgeOutbox() });
  configureHealth({ diskLowMegabytes: config.diskLowMegabytes, dataDir: config.dataDir });
  configureOutboundPolicy({ allowLoopback: config.webhookAllowLoopback, ownPort: config.port || null });
  configureMessageNotifications({ emailDelayCapSeconds: config.missedMessageEmailDelayCapSeconds, retryBaseSeconds: config.outboxRetryBaseSeconds, retryMaxSeconds: config.outboxRetryMaxSeconds });
  configureOutgoingWebhooks({ timeoutSeconds: config.webhookTimeoutSeconds, maxAttempts: config.webhookMaxAttempts, concurrencyPerService: config.outboxWebhookConcurrency });
  startEventQueues({
    heartbeatSeconds: config.heartbeatSeconds,
    queueTimeoutSeconds: config.queueTimeoutSeconds,
    maxQueueTimeoutSeconds: config.maxQueueTimeoutSeconds,
    maxEventsPerQueue: config.queueMaxEvents,
    maxEventCharsPerQueue: config.queueMaxMegabytes * 1024 * 1024,
    maxQueuesPerUser: config.maxQueuesPerUser,
    maxQueuesTotal: config.maxQueuesTotal,
    dataDir: config.dataDir,
  });
  const jobs = startJobs(config);
  return {
    announced: jobs.announced,
    async stop() {
      await jobs.stop();
      stopEventQueues();
    },
  };
}
