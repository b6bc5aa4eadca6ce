-- Full-text search over message content and topic (search narrows). An external-content FTS5
-- table: it stores only the index, reading text from `messages`; the triggers keep it in step
-- with every insert, edit, move and delete, whichever code path makes them.
-- NOTE for whoever rebuilds `messages` in a later migration (drizzle-kit does so for some
-- column changes): DROP TABLE drops these triggers; recreate them after the rebuild.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(content, topic, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `messages_fts`(`messages_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts`(rowid, content, topic) VALUES (new.id, new.content, new.topic);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, content, topic) VALUES ('delete', old.id, old.content, old.topic);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF content, topic ON `messages` BEGIN
  INSERT INTO `messages_fts`(`messages_fts`, rowid, content, topic) VALUES ('delete', old.id, old.content, old.topic);
  INSERT INTO `messages_fts`(rowid, content, topic) VALUES (new.id, new.content, new.topic);
END;
--> statement-breakpoint
-- Subscriptions from before subscription periods existed: treat them as having received
-- everything, the only assumption that hides nothing their owners could see before.
INSERT INTO `subscription_periods` (user_id, channel_id, starts_after, ends_at)
  SELECT user_id, channel_id, 0, NULL FROM subscriptions WHERE active = 1;
