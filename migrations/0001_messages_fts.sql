-- Full-text search over message content and topic (search narrows). A contentless FTS5 table:
-- it stores only the index, and the triggers keep it in step with every insert, edit, move and
-- delete, whichever code path makes them. `scope` holds one token per message naming its
-- conversation ("r" and the recipient ID), so a search within a channel or conversation is one
-- index intersection; user input is only ever matched against content and topic.
-- NOTE for whoever rebuilds `messages` in a later migration (drizzle-kit does so for some
-- column changes): DROP TABLE drops these triggers; recreate them after the rebuild.
CREATE VIRTUAL TABLE `messages_fts` USING fts5(content, topic, scope, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `messages_fts`(rowid, content, topic, scope) SELECT id, content, topic, 'r' || recipient_id FROM `messages`;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_insert` AFTER INSERT ON `messages` BEGIN
  INSERT INTO `messages_fts`(rowid, content, topic, scope) VALUES (new.id, new.content, new.topic, 'r' || new.recipient_id);
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_delete` AFTER DELETE ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `messages_fts_update` AFTER UPDATE OF content, topic, recipient_id ON `messages` BEGIN
  DELETE FROM `messages_fts` WHERE rowid = old.id;
  INSERT INTO `messages_fts`(rowid, content, topic, scope) VALUES (new.id, new.content, new.topic, 'r' || new.recipient_id);
END;
