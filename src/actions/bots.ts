import { requireBotCreationPermission } from "../access/bots";
import { accessBot, botAdministratorIds, requireHumanMember } from "../access/users";
import { getRealm, realmHost } from "../db/realm";
import { write } from "../db/transaction";
import type { Tx } from "../db/types";
import { findActiveUserByFullName, findUserByEmail, insertBotService, setApiKey, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { BotType, ServiceInterface } from "../model/bots";
import { Role } from "../model/roles";
import { refusalAtFirstSight } from "../net/outboundPolicy";
import { randomToken } from "../model/secrets";
import { botToApi, type ApiBot } from "../shapes/users";
import { addAccount, checkFullName } from "./users";


export interface NewBotInput {
  fullName: string;
  shortName: string;
  botType: number;
  /** As sent: JSON-encoded like the original expects, or a plain URL. */
  payloadUrl?: string;
  interfaceType: number;
}

// The e-mail local part is `<short name>-bot`, at most 64 characters.
const SHORT_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/i;
const MAX_SHORT_NAME_LENGTH = 60;

function checkShortName(raw: string): string {
  const shortName = raw.trim();
  if (shortName === "") throw badRequest("Bad name or username: short_name must not be empty.");
  if (shortName.length > MAX_SHORT_NAME_LENGTH) throw badRequest(`Bad name or username: short_name is at most ${MAX_SHORT_NAME_LENGTH} characters.`);
  if (!SHORT_NAME.test(shortName)) throw badRequest(`Bad name or username: short_name '${shortName}' may contain only letters, digits, '-', '_' and single dots.`);
  return shortName.toLowerCase();
}

function checkBotType(botType: number) {
  if (botType === BotType.EMBEDDED) throw badRequest("Embedded bots are not supported by this server.");
  if (botType !== BotType.GENERIC && botType !== BotType.INCOMING_WEBHOOK && botType !== BotType.OUTGOING_WEBHOOK) {
    throw badRequest(`Invalid bot type ${botType}: use 1 (generic), 2 (incoming webhook) or 3 (outgoing webhook).`);
  }
}

function checkInterfaceType(interfaceType: number) {
  if (interfaceType !== ServiceInterface.NATIVE && interfaceType !== ServiceInterface.SLACK) {
    throw badRequest(`Invalid interface type ${interfaceType}: use 1 (native) or 2 (Slack-compatible).`);
  }
}

/**
 * The URL an outgoing webhook posts to. The original expects it JSON-encoded; a bare URL is
 * accepted too. What the outgoing-request policy refuses without a name lookup (this server,
 * local addresses in any spelling) is refused here at once; the policy is checked again, name
 * resolved, at every delivery.
 */
function checkPayloadUrl(raw: string | undefined, realmUrl: string): string {
  let value: unknown = raw?.trim() ?? "";
  if (typeof value === "string" && value.startsWith('"')) {
    try {
      value = JSON.parse(value);
    } catch {
      throw badRequest("Argument 'payload_url' is not valid JSON.");
    }
  }
  if (typeof value !== "string" || value.trim() === "") throw badRequest("An outgoing webhook bot needs a payload_url: the http(s) URL its notifications are posted to.");
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw badRequest(`payload_url '${value}' is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest("payload_url must be an http or https URL.");
  const refused = refusalAtFirstSight(url.href, realmUrl);
  if (refused) throw badRequest(`payload_url '${value.trim()}' is refused: ${refused}.`);
  return value.trim();
}

/** POST /bots: a member creates a bot they own; its owner and the administrators get its details. */
export const createBot = (actor: User, input: NewBotInput): Promise<ApiBot> => write((tx) => addBot(tx, actor, input));

export async function addBot(tx: Tx, actor: User, input: NewBotInput): Promise<ApiBot> {
  requireHumanMember(actor, "create bots");
  const realm = await getRealm(tx);
  await requireBotCreationPermission(tx, actor, realm, input.botType);
  checkBotType(input.botType);
  checkInterfaceType(input.interfaceType);
  const fullName = checkFullName(input.fullName);
  const email = `${checkShortName(input.shortName)}-bot@${realmHost(realm)}`;
  const payloadUrl = input.botType === BotType.OUTGOING_WEBHOOK ? checkPayloadUrl(input.payloadUrl, realm.url) : null;
  if (await findUserByEmail(tx, email)) throw badRequest("Username already in use");
  if (await findActiveUserByFullName(tx, fullName)) throw badRequest(`Name is already in use: someone active is called '${fullName}'.`);
  const bot = await addAccount(tx, { email, fullName, role: Role.MEMBER, passwordHash: null, isBot: true, botType: input.botType, botOwnerId: actor.id });
  const service = payloadUrl === null ? undefined : await insertBotService(tx, { botId: bot.id, baseUrl: payloadUrl, token: randomToken(32), interface: input.interfaceType });
  const shape = botToApi(bot, service);
  tx.emit({ type: "realm_bot", op: "add", bot: shape }, await botAdministratorIds(tx, bot));
  return shape;
}

/**
 * POST /bots/{bot_id}/api_key/regenerate: the bot's owner or an administrator replaces its key.
 * The old key stops working with this commit (the verified-credentials cache is dropped at
 * every write); a deactivated bot's key may be replaced too, as in the original.
 */
export function regenerateBotApiKey(actor: User, botId: number): Promise<{ api_key: string }> {
  return write(async (tx) => {
    const bot = await accessBot(tx, actor, botId);
    const apiKey = randomToken(32);
    await setApiKey(tx, bot.id, apiKey);
    tx.emit({ type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: apiKey } }, await botAdministratorIds(tx, bot));
    return { api_key: apiKey };
  });
}
