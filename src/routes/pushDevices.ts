import { Elysia, t } from "elysia";
import { registerPushDevice, unregisterPushDevice } from "../actions/pushDevices";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

// Past the action's own length limit, so an overlong token gets the reference's message.
const Token = t.String({ maxLength: 10_000 });
const TokenBody = t.Object({ token: Token });

export const pushDeviceRoutes = new Elysia()
  .use(authentication)
  .post(
    "/users/me/apns_device_token",
    async ({ user, body }) => {
      await registerPushDevice(user, "apns", body.token, body.appid);
      return success();
    },
    { auth: true, body: t.Object({ token: Token, appid: t.String({ maxLength: 255 }) }) },
  )
  .delete(
    "/users/me/apns_device_token",
    async ({ user, body }) => {
      await unregisterPushDevice(user, "apns", body.token);
      return success();
    },
    { auth: true, body: TokenBody },
  )
  .post(
    "/users/me/android_gcm_reg_id",
    async ({ user, body }) => {
      await registerPushDevice(user, "fcm", body.token, null);
      return success();
    },
    { auth: true, body: TokenBody },
  )
  .delete(
    "/users/me/android_gcm_reg_id",
    async ({ user, body }) => {
      await unregisterPushDevice(user, "fcm", body.token);
      return success();
    },
    { auth: true, body: TokenBody },
  );
