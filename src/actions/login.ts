import { database } from "../db/client";
import { findUserByEmail } from "../db/users";
import { ApiError } from "../http/errors";

/** POST /fetch_api_key: trades an e-mail and password for the account's API key. */
export async function fetchApiKey(username: string, password: string, _address: string) {
  const user = findUserByEmail(database(), username);
  // Verify against a real hash even for unknown users, so timing does not reveal accounts.
  const hash = user?.passwordHash ?? (await decoyHash());
  const valid = await Bun.password.verify(password, hash);
  if (!user || !user.passwordHash || !valid) {
    throw new ApiError("UNAUTHORIZED", "Your username or password is incorrect", {}, { status: 401 });
  }
  if (!user.isActive) throw new ApiError("USER_DEACTIVATED", "Account is deactivated");
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
}

let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" }));
