const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A random alphanumeric string from the system CSPRNG (API keys, bot tokens). */
export function randomToken(length = 32): string {
  // 62 does not divide 256; rejecting bytes >= 248 keeps every character equally likely.
  let token = "";
  while (token.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && token.length < length) token += ALPHABET[byte % 62];
    }
  }
  return token;
}
