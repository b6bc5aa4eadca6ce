import { loadConfig } from "../config";
import { deleteExpiredSessions, deleteSession, deleteSessionByTokenHash, deleteSessionsOf, insertSession } from "../db/sessions";
import { write } from "../db/transaction";
import type { User } from "../db/users";
import { ApiError } from "../http/errors";
import { hashToken, newSessionToken } from "../http/session";
import { now } from "../model/clock";

/** A browser signs in: a new session, whose token goes into its cookie and nowhere else. */
export async function startSession(user: User, client: { userAgent: string; address: string }): Promise<string> {
  const token = newSessionToken();
  const at = now();
  await write((tx) =>
    insertSession(tx, {
      tokenHash: hashToken(token),
      userId: user.id,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: at + loadConfig().sessionIdleSeconds,
      // Shown in the list of sessions so a person can tell them apart; bounded, as it is theirs to send.
      userAgent: client.userAgent.slice(0, 300),
      address: client.address.slice(0, 64),
    }),
  );
  return token;
}

/** Sign-out: the session the browser holds ends. Unknown tokens are fine (already gone). */
export async function endSession(token: string) {
  await write((tx) => deleteSessionByTokenHash(tx, hashToken(token)));
}

/** A person ends one of their own sessions (another browser, a lost phone). */
export async function revokeSession(user: User, sessionId: number) {
  await write(async (tx) => {
    if (!(await deleteSession(tx, user.id, sessionId))) throw new ApiError("BAD_REQUEST", "Invalid session ID");
  });
}

/** Ends every session of a user except `keepSessionId` (after a password change, say). */
export async function endOtherSessions(userId: number, keepSessionId: number | null) {
  await write((tx) => deleteSessionsOf(tx, userId, keepSessionId));
}

export async function removeExpiredSessions(): Promise<number> {
  return await write((tx) => deleteExpiredSessions(tx, now()));
}
