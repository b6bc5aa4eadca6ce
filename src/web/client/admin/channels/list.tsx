import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { Badge, Button, Empty, ListFilter, Loaded, PageHead, toast, useAction, useLoad } from "../../ui/components";
import { Icon } from "../../ui/icons";
import { matchesSearch } from "../../ui/format";
import { CreateChannelDialog } from "./createChannel";
import { ALL_CHANNELS, PRIVACY_NAMES, privacyOf, type Channel } from "./types";

/** Every channel, private and archived ones included: find, create, archive, choose the defaults. */

type Filter = "active" | "archived" | "all";

const loadChannels = () => api<{ streams: Channel[] }>("GET", "/streams", ALL_CHANNELS).then((answer) => answer.streams);

export function ChannelList() {
  const state = useLoad(loadChannels);
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<Filter>("active");
  const [creating, setCreating] = useState(false);
  const { busy, run } = useAction();
  const change = (key: string, action: () => Promise<unknown>, done: string) => run(key, action, done).then((ok) => ok && state.reload());

  return (
    <>
      <PageHead
        title="Channels"
        description="Where conversations happen. Default channels are the ones new members start in; archived channels keep their messages but take no new ones."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create a channel
          </Button>
        }
      />
      <div class="card">
        <ListFilter
          id="channels"
          noun="channels"
          placeholder="Search by name or description"
          search={search}
          onSearch={setSearch}
          filter={filter}
          onFilter={setFilter}
          options={[
            { value: "active", label: "Active" },
            { value: "archived", label: "Archived" },
            { value: "all", label: "All channels" },
          ]}
        />
        <Loaded state={state}>
          {(channels) => {
            const shown = channels.filter(
              (channel) =>
                (filter === "all" || channel.is_archived === (filter === "archived")) &&
                matchesSearch(search, [channel.name, channel.description]),
            );
            if (channels.length === 0) return <Empty>No channels yet.</Empty>;
            if (shown.length === 0) return <Empty>No channel matches.</Empty>;
            return (
              <div class="table-wrap">
                <table class="table">
                  <thead>
                    <tr>
                      <th>Channel</th>
                      <th>Access</th>
                      <th class="actions">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {shown.map((channel) => {
                      const privacy = privacyOf(channel);
                      return (
                        <tr key={channel.stream_id} data-channel-id={channel.stream_id}>
                          <td>
                            <div class="row">
                              <span class="muted" aria-hidden="true">
                                <Icon name={channel.invite_only ? "lock" : "hash"} size={16} />
                              </span>
                              <span class="cell-main">
                                <strong>
                                  <a href={`/admin/channels/${channel.stream_id}`}>{channel.name}</a>
                                </strong>
                                {channel.description && <small class="clamp">{channel.description}</small>}
                              </span>
                            </div>
                          </td>
                          <td data-label="Access">
                            <Badge kind={channel.invite_only ? "warn" : undefined}>{PRIVACY_NAMES[privacy]}</Badge> {channel.is_default && <Badge kind="accent">default</Badge>}{" "}
                            {channel.is_archived && <Badge kind="danger">archived</Badge>}
                          </td>
                          <td class="actions">
                            <a class="btn btn-small" href={`/admin/channels/${channel.stream_id}`} aria-label={`Edit ${channel.name}`}>
                              Edit
                            </a>{" "}
                            {!channel.is_archived && !channel.invite_only && (
                              <Button
                                small
                                busy={busy === `default-${channel.stream_id}`}
                                aria-label={channel.is_default ? `Stop making ${channel.name} a default` : `Make ${channel.name} a default`}
                                onClick={() =>
                                  change(
                                    `default-${channel.stream_id}`,
                                    () => api(channel.is_default ? "DELETE" : "POST", "/default_streams", { stream_id: channel.stream_id }),
                                    channel.is_default ? `New members no longer join #${channel.name}.` : `New members now join #${channel.name}.`,
                                  )
                                }
                              >
                                {channel.is_default ? "Remove default" : "Make default"}
                              </Button>
                            )}{" "}
                            {channel.is_archived ? (
                              <Button
                                small
                                busy={busy === `unarchive-${channel.stream_id}`}
                                aria-label={`Unarchive ${channel.name}`}
                                onClick={() => change(`unarchive-${channel.stream_id}`, () => api("PATCH", `/streams/${channel.stream_id}`, { is_archived: false }), `#${channel.name} is back.`)}
                              >
                                Unarchive
                              </Button>
                            ) : (
                              <Button
                                small
                                variant="danger"
                                busy={busy === `archive-${channel.stream_id}`}
                                aria-label={`Archive ${channel.name}`}
                                onClick={() =>
                                  confirm(`Archive #${channel.name}? Its messages are kept, but nobody can post to it until it is unarchived.`) &&
                                  change(`archive-${channel.stream_id}`, () => api("DELETE", `/streams/${channel.stream_id}`), `#${channel.name} was archived.`)
                                }
                              >
                                Archive
                              </Button>
                            )}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            );
          }}
        </Loaded>
      </div>
      <CreateChannelDialog
        open={creating}
        existingNames={state.data?.map((channel) => channel.name) ?? []}
        onClose={() => setCreating(false)}
        onCreated={(name) => {
          setCreating(false);
          toast(`#${name} was created.`);
          state.reload();
        }}
      />
    </>
  );
}
