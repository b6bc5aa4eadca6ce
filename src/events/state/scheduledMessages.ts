import { listUndeliveredScheduledMessages } from "../../db/scheduledMessages";
import type { Reader } from "../../db/types";
import { scheduledMessageToApi } from "../../shapes/scheduledMessages";
import type { UserStateContext } from "./context";

/** scheduled_messages: the viewer's messages not yet sent, failed ones included, soonest first. */
export async function scheduledMessagesState(db: Reader, { viewer }: UserStateContext) {
  return { scheduled_messages: (await listUndeliveredScheduledMessages(db, viewer.id)).map(scheduledMessageToApi) };
}
