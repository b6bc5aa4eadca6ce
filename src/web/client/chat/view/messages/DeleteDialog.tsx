import { signal, useSignal } from "@preact/signals";
import { Button, Dialog } from "../../../ui/components";
import { deleteMessage } from "./actions";

/** "Delete this message?": one dialog for the view, asked for by the actions menu. */

export const deleting = signal<number | null>(null);

export function DeleteDialogHost() {
  const busy = useSignal(false);
  const id = deleting.value;
  const close = () => (deleting.value = null);
  async function confirm() {
    if (id === null) return;
    busy.value = true;
    const done = await deleteMessage(id);
    busy.value = false;
    if (done) close();
  }
  return (
    <Dialog
      title="Delete this message?"
      open={id !== null}
      onClose={close}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="danger" busy={busy.value} onClick={confirm}>
            Delete
          </Button>
        </>
      }
    >
      <p>It will be removed for everyone in the conversation. This cannot be undone.</p>
    </Dialog>
  );
}
