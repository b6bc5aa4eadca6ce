/**
 * The server emoji data (register's server_emoji_data_url): `{"code_to_names": {code: [name,
 * alias, ...]}}` for every Unicode emoji, canonical name first. It is built from the very table
 * messages and reactions use (render/emoji.ts), so every name it lists is one the server
 * accepts; and from the JSON bundled into the program, so it needs no file at run time. Its
 * URL carries a hash of the content: clients may cache it for good, and a server with other
 * emoji names gives another URL.
 */
import { unicodeEmojiCodeToNames } from "./emoji";

export const SERVER_EMOJI_DATA_DIRECTORY = "/static/generated/emoji";

let built: { json: string; hash: string } | null = null;

export function serverEmojiData(): { json: string; hash: string } {
  if (built === null) {
    const json = JSON.stringify({ code_to_names: Object.fromEntries(unicodeEmojiCodeToNames()) });
    built = { json, hash: new Bun.CryptoHasher("sha256").update(json).digest("hex").slice(0, 16) };
  }
  return built;
}

/** The path of the data, relative to the server's URL, with its content hash. */
export const serverEmojiDataPath = () => `${SERVER_EMOJI_DATA_DIRECTORY}/emoji_api.${serverEmojiData().hash}.json`;
