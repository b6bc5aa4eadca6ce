import { write } from "../db/transaction";
import { setApiKey, type User } from "../db/users";
import { badRequest } from "../http/errors";
import { randomToken } from "../model/secrets";

/**
 * POST /users/me/api_key/regenerate: a person replaces their own API key (the original's web
 * app calls this from its settings). The old key stops working with this commit, since the
 * verified-credentials cache is dropped at every write. Bots have theirs replaced through
 * /bots/{bot_id}/api_key/regenerate, as in the original, which refuses bots here.
 */
export async function regenerateOwnApiKey(user: User): Promise<{ api_key: string }> {
  if (user.isBot) throw badRequest("This endpoint does not accept bot requests.");
  const apiKey = randomToken(32);
  await write((tx) => setApiKey(tx, user.id, apiKey));
  return { api_key: apiKey };
}
