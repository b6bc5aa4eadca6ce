import { useState } from "preact/hooks";
import { api, apiText } from "../../ui/api";
import { Button, CopyField, Dialog, Field, Loaded, Notice, downloadText, useAction, useLoad } from "../../ui/components";
import { BotType, INTERFACE_NAMES, parseZuliprc, type BotRow } from "./types";

/**
 * A bot's credentials: its address, API key and (outgoing webhooks) token, read from its
 * zuliprc, which the owner and administrators may download for any bot; GET /bots would give
 * only the viewer's own.
 */
export function CredentialsDialog(props: { bot: BotRow; justCreated?: boolean; onClose: () => void }) {
  const { bot } = props;
  const [generation, setGeneration] = useState(0);
  const file = useLoad(() => apiText(`/bots/${bot.user_id}/zuliprc`), [bot.user_id, generation]);
  const { busy, run } = useAction();
  const service = bot.services?.[0];

  const regenerate = () =>
    confirm(`Replace the API key of ${bot.full_name}? Anything still using the old key stops working at once.`) &&
    run("regenerate", () => api("POST", `/bots/${bot.user_id}/api_key/regenerate`), `${bot.full_name} has a new API key.`).then((ok) => ok && setGeneration((value) => value + 1));

  return (
    <Dialog
      title={`Credentials of ${bot.full_name}`}
      open
      onClose={props.onClose}
      footer={
        <>
          <Button variant="danger" busy={busy === "regenerate"} onClick={regenerate}>
            Regenerate API key
          </Button>
          <Button disabled={file.data === undefined} onClick={() => file.data !== undefined && downloadText("zuliprc", file.data)}>
            Download zuliprc
          </Button>
          <Button variant="primary" onClick={props.onClose}>
            Done
          </Button>
        </>
      }
    >
      {props.justCreated && <Notice kind="ok">{bot.full_name} was created. Its programs sign in with the address and key below, or with the zuliprc file.</Notice>}
      <Loaded state={file}>
        {(text) => {
          const fields = parseZuliprc(text);
          return (
            <>
              <Field label="Bot e-mail" id="bot-email">
                <CopyField id="bot-email" value={fields.email ?? bot.email} label="Bot e-mail" />
              </Field>
              <Field label="API key" id="bot-api-key" hint="Treat it like a password: whoever has it can act as the bot.">
                <CopyField id="bot-api-key" value={fields.key ?? ""} label="API key" />
              </Field>
              {bot.bot_type === BotType.OUTGOING_WEBHOOK && (
                <>
                  {service && (
                    <Field label="Endpoint URL" id="bot-endpoint" hint={`Messages that mention or are sent to the bot are posted here in the ${INTERFACE_NAMES[service.interface] ?? "Zulip"} format.`}>
                      <CopyField id="bot-endpoint" value={service.base_url} label="Endpoint URL" />
                    </Field>
                  )}
                  <Field label="Outgoing token" id="bot-token" hint="Sent in every notification, so your endpoint can tell they come from this server.">
                    <CopyField id="bot-token" value={fields.token ?? ""} label="Outgoing token" />
                  </Field>
                </>
              )}
            </>
          );
        }}
      </Loaded>
    </Dialog>
  );
}
