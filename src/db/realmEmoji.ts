import { asc, eq } from "drizzle-orm";
import { readFileSync } from "node:fs";
import { EMOJI_IMAGE_CONTENT_TYPES, type EmojiImageFormat, inspectEmojiImage } from "../model/emojiImages";
import { cachedUntilChange } from "./caches";
import { storedFilePath } from "./fileStore";
import { prepared } from "./prepared";
import type { Reader, Tx } from "./types";
import { realmEmoji } from "./tables";

export type RealmEmojiRow = typeof realmEmoji.$inferSelect;

/** A row and whether its image moves (then it has a still version too). */
export type RealmEmojiEntry = RealmEmojiRow & { animated: boolean };

// Stored files never change (they are named by their hash), so whether one is animated is
// worked out once per process, not at every reload of the list below.
const animatedByHash = new Map<string, boolean>();

function isAnimatedFile(row: RealmEmojiRow): boolean {
  let animated = animatedByHash.get(row.sha256);
  if (animated === undefined) {
    const format = formatOfContentType(row.contentType);
    try {
      animated = format !== null && inspectEmojiImage(readFileSync(storedFilePath(row.sha256)), format).animated;
    } catch {
      // A file missing from a damaged data dir is served as a 404 anyway; it has no still.
      animated = false;
    }
    animatedByHash.set(row.sha256, animated);
  }
  return animated;
}

/** Called by the upload, which has just inspected the bytes. */
export function rememberAnimation(sha256: string, animated: boolean) {
  animatedByHash.set(sha256, animated);
}

export function formatOfContentType(contentType: string): EmojiImageFormat | null {
  const found = Object.entries(EMOJI_IMAGE_CONTENT_TYPES).find(([, type]) => type === contentType);
  return found ? (found[0] as EmojiImageFormat) : null;
}

interface RealmEmojiTables {
  all: readonly RealmEmojiEntry[];
  byId: ReadonlyMap<string, RealmEmojiEntry>;
  /** Active emoji only: the ones a name means in a message, a reaction or a status. */
  activeByName: ReadonlyMap<string, RealmEmojiEntry>;
}

const allRows = prepared((db) => db.select().from(realmEmoji).orderBy(asc(realmEmoji.id)).prepare());

// Every send with `:name:` in it and every reaction looks names up; emoji change only in
// write() transactions (db/caches.ts).
const currentTables = cachedUntilChange("realmEmoji", async (db): Promise<RealmEmojiTables> => {
  const all = ((await allRows(db).all()) as RealmEmojiRow[]).map((row) => Object.freeze({ ...row, animated: isAnimatedFile(row) }));
  return {
    all,
    byId: new Map(all.map((entry) => [String(entry.id), entry])),
    activeByName: new Map(all.filter((entry) => !entry.deactivated).map((entry) => [entry.name, entry])),
  };
});

/** Every custom emoji, deactivated ones included (old messages and reactions still show them), by ID. */
export async function listRealmEmoji(db: Reader): Promise<readonly RealmEmojiEntry[]> {
  return (await currentTables(db)).all;
}

/** By emoji_code (the ID as a string), deactivated or not. */
export async function findRealmEmojiById(db: Reader, id: string): Promise<RealmEmojiEntry | undefined> {
  return (await currentTables(db)).byId.get(id);
}

export async function findActiveRealmEmojiByName(db: Reader, name: string): Promise<RealmEmojiEntry | undefined> {
  return (await currentTables(db)).activeByName.get(name);
}

/** The emoji whose image is served under this file name, deactivated or not. */
export async function findRealmEmojiByFileName(db: Reader, fileName: string): Promise<RealmEmojiRow | undefined> {
  return (await db.select().from(realmEmoji).where(eq(realmEmoji.fileName, fileName)))[0];
}

export async function insertRealmEmoji(tx: Tx, values: typeof realmEmoji.$inferInsert): Promise<RealmEmojiRow> {
  return (await tx.insert(realmEmoji).values(values).returning())[0];
}

export async function deactivateRealmEmoji(tx: Tx, id: number) {
  await tx.update(realmEmoji).set({ deactivated: true }).where(eq(realmEmoji.id, id));
}
