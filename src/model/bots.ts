/** The kinds of bot (the reference's bot_type values). */
export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
/** How an outgoing webhook formats its POST: the native payload (spec 4.20) or Slack's. */
export const ServiceInterface = { NATIVE: 1, SLACK: 2 } as const;
