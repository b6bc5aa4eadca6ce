-- New messages are indexed for search in one statement per transaction, just before it commits
-- (db/searchIndex.ts), instead of row by row: FTS5 took about three times as long per message
-- through the trigger. Edits, moves and deletions still go through the triggers of 0001.
DROP TRIGGER `messages_fts_insert`;
