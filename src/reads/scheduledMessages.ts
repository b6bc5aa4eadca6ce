import { listUndeliveredScheduledMessages } from "../db/scheduledMessages";
import { read } from "../db/transaction";
import type { User } from "../db/users";
import { scheduledMessageToApi, type ApiScheduledMessage } from "../shapes/scheduledMessages";

/** GET /scheduled_messages: the caller's own, not yet sent, soonest first; nobody sees another's. */
export const listOwnScheduledMessages = (viewer: User): Promise<ApiScheduledMessage[]> => read(async (db) => (await listUndeliveredScheduledMessages(db, viewer.id)).map(scheduledMessageToApi));
