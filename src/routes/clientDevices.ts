import { Elysia, t } from "elysia";
import { registerClientDevice, registerPushDevice, removeClientDevice } from "../actions/clientDevices";
import { authentication } from "../http/auth";
import { success } from "../http/errors";

/**
 * Client devices and their end-to-end-encrypted push registration (zulip-flutter:
 * register_client_device, remove_client_device, mobile_push/register). The legacy token
 * endpoints are in pushDevices.ts. Stored only: nothing is pushed yet.
 */

const DeviceId = t.Numeric({ multipleOf: 1 });
// Past the action's own limits, so an overlong value gets its message rather than a schema error.
const Text = () => t.Optional(t.String({ maxLength: 100_000 }));

export const clientDeviceRoutes = new Elysia()
  .use(authentication)
  .post("/register_client_device", async ({ user }) => success({ device_id: await registerClientDevice(user) }), { auth: true, body: t.Object({}) })
  .post(
    "/remove_client_device",
    async ({ user, body }) => {
      await removeClientDevice(user, body.device_id);
      return success();
    },
    { auth: true, body: t.Object({ device_id: DeviceId }) },
  )
  .post(
    "/mobile_push/register",
    async ({ user, body }) => {
      await registerPushDevice(user, {
        deviceId: body.device_id,
        pushKeyId: body.push_key_id,
        pushKey: body.push_key,
        tokenKind: body.token_kind,
        tokenId: body.token_id,
        bouncerPublicKey: body.bouncer_public_key,
        encryptedPushRegistration: body.encrypted_push_registration,
      });
      return success();
    },
    {
      auth: true,
      body: t.Object({
        device_id: DeviceId,
        // An unsigned 32-bit integer, as the reference describes it.
        push_key_id: t.Optional(t.Numeric({ minimum: 0, maximum: 4_294_967_295, multipleOf: 1 })),
        push_key: Text(),
        token_kind: Text(),
        token_id: Text(),
        bouncer_public_key: Text(),
        encrypted_push_registration: Text(),
      }),
    },
  );
