import { listSessionsOf } from "../db/sessions";
import { read } from "../db/transaction";
import type { User } from "../db/users";

export interface SessionShape {
  id: number;
  /** UNIX seconds. */
  created: number;
  last_active: number;
  expires: number;
  user_agent: string;
  ip_address: string;
  /** Whether this is the session the request came with. */
  is_current: boolean;
}

/** A person's own browser sessions, most recently used first. */
export async function listSessions(user: User, currentSessionId: number | null): Promise<SessionShape[]> {
  return (await read((db) => listSessionsOf(db, user.id))).map((session) => ({
    id: session.id,
    created: session.createdAt,
    last_active: session.lastSeenAt,
    expires: session.expiresAt,
    user_agent: session.userAgent,
    ip_address: session.address,
    is_current: session.id === currentSessionId,
  }));
}
