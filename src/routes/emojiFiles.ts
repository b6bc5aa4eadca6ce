import { Elysia, t } from "elysia";
import { ApiError } from "../http/errors";
import { readEmojiImage } from "../reads/realmEmoji";
import { EXTRA_EMOJI_IMAGE_URL } from "../render/emoji";
import { extraEmojiPng } from "../render/extraEmojiImage";
import { SERVER_EMOJI_DATA_DIRECTORY, serverEmojiData } from "../render/serverEmojiData";

/**
 * Files served without authentication, as the reference serves them: custom emoji images
 * (their URLs are not guessable), the server emoji data the mobile app downloads, and the
 * image of the built-in :zulip: emoji.
 */

const notFound = () => new ApiError("NOT_FOUND", "File not found");

/** What every served file carries: no sniffing into another type, nothing run inside it. */
const SAFE_FILE_HEADERS = { "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox" };
const FOREVER = "public, max-age=31536000, immutable";

async function imageResponse(realmId: string, fileName: string, still: boolean): Promise<Response> {
  const image = await readEmojiImage(realmId, fileName, still);
  if (!image) throw notFound();
  // A file name is never reused for other bytes, so the image may be cached for good.
  return new Response(image.bytes, { headers: { "content-type": image.contentType, "cache-control": FOREVER, ...SAFE_FILE_HEADERS } });
}

const FileParams = t.Object({ realm_id: t.String({ maxLength: 20 }), file_name: t.String({ maxLength: 200 }) });

export const emojiFileRoutes = new Elysia()
  .get(EXTRA_EMOJI_IMAGE_URL, () => new Response(extraEmojiPng(), { headers: { "content-type": "image/png", "cache-control": "public, max-age=86400", ...SAFE_FILE_HEADERS } }), {
    query: t.Object({}),
  })
  .get("/user_avatars/:realm_id/emoji/images/:file_name", ({ params }) => imageResponse(params.realm_id, params.file_name, false), {
    params: FileParams,
    query: t.Object({}),
  })
  .get("/user_avatars/:realm_id/emoji/images/still/:file_name", ({ params }) => imageResponse(params.realm_id, params.file_name, true), {
    params: FileParams,
    query: t.Object({}),
  })
  .get(
    `${SERVER_EMOJI_DATA_DIRECTORY}/:file_name`,
    ({ params }) => {
      const data = serverEmojiData();
      // The hashed name is what register hands out; the plain one is for people and old links.
      const hashed = params.file_name === `emoji_api.${data.hash}.json`;
      if (!hashed && params.file_name !== "emoji_api.json") throw notFound();
      return new Response(data.json, {
        headers: {
          "content-type": "application/json",
          "cache-control": hashed ? FOREVER : "public, max-age=3600",
          etag: `"${data.hash}"`,
          "x-content-type-options": "nosniff",
        },
      });
    },
    { params: t.Object({ file_name: t.String({ maxLength: 200 }) }), query: t.Object({}) },
  );
