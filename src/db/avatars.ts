import { eq, sql } from "drizzle-orm";
import type { Reader, Tx } from "./types";
import { type User } from "./users";
import { users } from "./tables";

/**
 * Uploaded avatars: `users.avatar_file` holds the image's SHA-256 in the file store
 * (db/fileStore.ts), null for the Gravatar. Every change bumps avatar_version, which clients
 * use to tell a new avatar from the one they have.
 */

/** Points the user at new avatar bytes (or none) and returns the updated row. */
export async function setAvatarFile(tx: Tx, userId: number, sha256: string | null): Promise<User> {
  return (await tx
    .update(users)
    .set({ avatarFile: sha256, avatarVersion: sql`${users.avatarVersion} + 1` })
    .where(eq(users.id, userId))
    .returning())[0]!;
}

/** Whether some account, active or not, has these bytes as its avatar (old messages still show it). */
export async function isAvatarFile(db: Reader, sha256: string): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.avatarFile, sha256)).limit(1))[0] !== undefined;
}
