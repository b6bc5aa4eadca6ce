/** What the Bots section knows about a bot, and the names of its kinds. */

export interface BotService {
  base_url: string;
  token: string;
  interface: number;
}

/** A bot as GET /users lists it, with its owner's name and, for the viewer's own bots, GET /bots's services. */
export interface BotRow {
  user_id: number;
  full_name: string;
  email: string;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_active: boolean;
  avatar_url: string | null;
  owner_name: string | null;
  /** Known only for bots the viewer owns: GET /bots lists no one else's. */
  services?: BotService[];
}

export const BotType = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

export const BOT_TYPE_NAMES: Record<number, string> = {
  [BotType.GENERIC]: "Generic",
  [BotType.INCOMING_WEBHOOK]: "Incoming webhook",
  [BotType.OUTGOING_WEBHOOK]: "Outgoing webhook",
  [BotType.EMBEDDED]: "Embedded",
};

export const INTERFACE_NAMES: Record<number, string> = { 1: "Zulip", 2: "Slack-compatible" };

/** The fields of a zuliprc file ([api] section: email, key, site, and token for outgoing webhooks). */
export function parseZuliprc(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([a-z_]+)\s*=\s*(.*?)\s*$/i.exec(line);
    if (match) fields[match[1]!.toLowerCase()] = match[2]!;
  }
  return fields;
}
