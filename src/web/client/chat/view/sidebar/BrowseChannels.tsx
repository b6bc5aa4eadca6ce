import { useSignal } from "@preact/signals";
import { api } from "../../../ui/api";
import { Button, Dialog, TextInput, toastError } from "../../../ui/components";
import { matchesSearch } from "../../../ui/format";
import { goTo } from "../../state/place";
import { channels, subscriptions } from "../../state/store";

/**
 * "+" beside Channels: every channel the person may see, to join or leave. The subscription
 * events then change the sidebar, as for a change made in any other client.
 */
export function BrowseChannels() {
  const open = useSignal(false);
  const search = useSignal("");
  const busy = useSignal<number | null>(null);
  const all = [...channels.value.values()].filter((channel) => !channel.is_archived && matchesSearch(search.value, [channel.name, channel.description]));
  all.sort((a, b) => a.name.localeCompare(b.name));

  async function toggle(channelId: number, name: string, join: boolean) {
    busy.value = channelId;
    try {
      if (join) await api("POST", "/users/me/subscriptions", { subscriptions: [{ name }] });
      else await api("DELETE", "/users/me/subscriptions", { subscriptions: [name] });
      if (join) {
        open.value = false;
        goTo({ kind: "channel", channelId });
      }
    } catch (error) {
      toastError(error);
    } finally {
      busy.value = null;
    }
  }

  return (
    <>
      <button type="button" class="side-add" aria-label="Browse channels" title="Browse channels" onClick={() => (open.value = true)}>
        +
      </button>
      <Dialog title="Channels" open={open.value} onClose={() => (open.value = false)}>
        <TextInput value={search.value} onValue={(value) => (search.value = value)} type="search" placeholder="Filter channels" aria-label="Filter channels" />
        <ul class="browse-list">
          {all.map((channel) => {
            const joined = subscriptions.value.has(channel.stream_id);
            return (
              <li key={channel.stream_id}>
                <span class="grow">
                  <strong>#{channel.name}</strong>
                  {channel.description && <small class="muted"> {channel.description}</small>}
                </span>
                <Button small variant={joined ? "ghost" : "primary"} busy={busy.value === channel.stream_id} onClick={() => void toggle(channel.stream_id, channel.name, !joined)}>
                  {joined ? "Leave" : "Join"}
                </Button>
              </li>
            );
          })}
          {all.length === 0 && <li class="muted">No channels match.</li>}
        </ul>
      </Dialog>
    </>
  );
}
