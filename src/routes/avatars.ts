import { Elysia, t } from "elysia";
import { removeOwnAvatar, uploadOwnAvatar } from "../actions/avatars";
import { authentication } from "../http/auth";
import { requestLimits } from "../http/requestLimits";
import { ApiError, success } from "../http/errors";
import { filesOf } from "../http/params";
import { readAvatarImage } from "../reads/avatars";

/** The caller's own avatar: an uploaded image, or back to the Gravatar. */
export const avatarRoutes = new Elysia()
  .use(authentication)
  .use(requestLimits)
  .post("/users/me/avatar", async ({ user, body }) => success(await uploadOwnAvatar(user, filesOf(body))), { auth: true, limit: "uploads" })
  .delete("/users/me/avatar", async ({ user }) => success(await removeOwnAvatar(user)), { auth: true, body: t.Object({}) });

/** What every served file carries: no sniffing into another type, nothing run inside it. */
const SAFE_FILE_HEADERS = { "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'; sandbox" };

/**
 * The images themselves, outside /api/v1 and without credentials, as the original serves
 * avatars. A name is the bytes' hash, so it never shows anything else and may be cached for good.
 */
export const avatarFileRoutes = new Elysia().get(
  "/user_avatars/:realm_id/:file_name",
  async ({ params }) => {
    const image = await readAvatarImage(params.realm_id, params.file_name);
    if (!image) throw new ApiError("NOT_FOUND", "File not found");
    return new Response(image.bytes, { headers: { "content-type": image.contentType, "cache-control": "public, max-age=31536000, immutable", ...SAFE_FILE_HEADERS } });
  },
  { params: t.Object({ realm_id: t.String({ maxLength: 20 }), file_name: t.String({ maxLength: 200 }) }), query: t.Object({}, { additionalProperties: true }) },
);
