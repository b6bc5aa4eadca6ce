import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createChannels } from "../../src/actions/channels";
import { sendMessage, sendMessageInTransaction, type SendMessageRequest } from "../../src/actions/sendMessage";
import { addSubscriptions } from "../../src/actions/subscriptionChanges";
import { editMessage } from "../../src/actions/editMessage";
import { writeSend } from "../../src/db/groupCommit";
import { read, write } from "../../src/db/transaction";
import { type InProcessOrg, inProcessOrg } from "../helpers/inProcess";

// New messages reach the full-text index in one statement at the end of their transaction
// (db/searchIndex.ts) rather than through a trigger; these check that exactly the committed
// messages are indexed, each once, whatever the batch they came in.

let org: InProcessOrg;

beforeAll(async () => {
  org = await inProcessOrg();
  await write(async (tx) => {
    const channels = await createChannels(tx, org.owner, [{ name: "indexed", description: "" }], { inviteOnly: false, isWebPublic: false, historyPublicToSubscribers: undefined, messageRetentionDays: null, isDefault: false, groupSettings: {} });
    await addSubscriptions(tx, channels, [org.owner, org.member]);
  });
});
afterAll(() => org.dispose());

const message = (content: string): SendMessageRequest => ({ type: "stream", to: "indexed", topic: "search", content, client: "test" });
/** IDs the index returns for a word, as often as it holds them (as committed). */
const found = async (word: string) =>
  (await read((db) => db.all<{ rowid: number }>(sql`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ${word} ORDER BY rowid`))).map((row) => row.rowid);
const stored = async (word: string) => (await read((db) => db.all<{ id: number }>(sql`SELECT id FROM messages WHERE content LIKE ${`%${word}%`} ORDER BY id`))).map((row) => row.id);

describe("search index", () => {
  test("every message of a burst is searchable as soon as its send is answered", async () => {
    const ids = await Promise.all(["alpha one", "alpha two", "alpha three", "alpha four"].map((content) => sendMessage(org.member, message(content)).then((result) => result.id)));
    expect(await found("alpha")).toEqual(ids.sort((a, b) => a - b));
  });

  test("a send that fails after writing leaves nothing in the index; the others of its batch are indexed", async () => {
    const results = await Promise.allSettled([
      sendMessage(org.member, message("bravo kept")),
      writeSend(async (tx) => {
        await sendMessageInTransaction(tx, org.member, message("bravo lost"));
        throw new Error("failed after writing");
      }),
      sendMessage(org.member, message("bravo also kept")),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await found("lost")).toEqual([]);
    expect(await found("bravo")).toEqual(await stored("bravo"));
    expect(await stored("bravo")).toHaveLength(2);
  });

  test("a rolled-back transaction's messages are not indexed by the next one", async () => {
    await expect(
      write(async (tx) => {
        await sendMessageInTransaction(tx, org.member, message("charlie rolled back"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const { id } = await sendMessage(org.member, message("charlie committed"));
    expect(await found("charlie")).toEqual([id]);
  });

  test("an edited message is indexed once, as edited", async () => {
    const id = await write(async (tx) => {
      const { id } = await sendMessageInTransaction(tx, org.owner, message("delta before"));
      return id;
    });
    expect(await found("delta")).toEqual([id]);
    await editMessage(org.owner, id, { content: "delta after", propagateMode: "change_one", notifyOldThread: false, notifyNewThread: false });
    expect(await found("before")).toEqual([]);
    expect(await found("after")).toEqual([id]);
    expect(await found("delta")).toEqual([id]);
  });
});
