import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import { Badge, Button, Checkbox, Empty, Field, Loaded, Notice, TextInput, errorText, useLoad } from "../../ui/components";
import { StepCard } from "../frame";
import type { StepProps } from "../state";

/** Step 5 (optional): the first channels, made default so everyone who joins is in them. */

interface Channel {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  is_default?: boolean;
}

const loadChannels = () => api<{ streams: Channel[] }>("GET", "/streams", { include_default: true }).then((answer) => answer.streams);

export function ChannelsStep({ state, update, next, back }: StepProps) {
  const channels = useLoad(loadChannels);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [everyone, setEveryone] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Creates the channel typed in, if any; says whether the step may go on. */
  async function create(): Promise<boolean> {
    const wanted = name.trim();
    if (wanted === "") return true;
    if (channels.data?.some((channel) => channel.name.toLowerCase() === wanted.toLowerCase())) {
      setProblem(`There is already a channel named #${wanted}.`);
      return false;
    }
    setBusy(true);
    try {
      await api("POST", "/users/me/subscriptions", { subscriptions: [{ name: wanted, description: description.trim() }], is_default_stream: everyone });
      update({ channelsCreated: [...state.channelsCreated, wanted] });
      setName("");
      setDescription("");
      setProblem(null);
      channels.reload();
      return true;
    } catch (error) {
      setProblem(errorText(error));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return (
    <StepCard
      title="Channels"
      intro={<p>Conversations happen in channels, each about one thing: a team, a project, the office. Start with a few; anyone can add more later.</p>}
      onSubmit={async () => (await create()) && next()}
      back={
        <Button onClick={back} disabled={busy}>
          Back
        </Button>
      }
      actions={
        <>
          <Button variant="ghost" onClick={next} disabled={busy}>
            Skip
          </Button>
          <Button variant="primary" type="submit" disabled={busy}>
            Continue
          </Button>
        </>
      }
    >
      <h2 class="step-subhead">Channels so far</h2>
      <Loaded state={channels}>
        {(list) =>
          list.length === 0 ? (
            <Empty>No channels yet.</Empty>
          ) : (
            <ul class="item-list" aria-label="Channels so far">
              {list.map((channel) => (
                <li key={channel.stream_id}>
                  <span class="cell-main">
                    <strong>#{channel.name}</strong>
                    {channel.description && <small>{channel.description}</small>}
                  </span>
                  <span class="row">
                    {channel.invite_only && <Badge>private</Badge>}
                    {channel.is_default && <Badge kind="accent">everyone joins</Badge>}
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <h2 class="step-subhead">New channel</h2>
      {problem && <Notice kind="error">{problem}</Notice>}
      <Field label="Channel name" id="channel-name">
        <TextInput id="channel-name" value={name} onValue={setName} maxLength={60} autocomplete="off" placeholder="general" />
      </Field>
      <Field label="Description" id="channel-description" hint="Optional: what the channel is for.">
        <TextInput id="channel-description" value={description} onValue={setDescription} maxLength={1024} autocomplete="off" />
      </Field>
      <Checkbox id="channel-default" label="Everyone who joins is subscribed" checked={everyone} onChecked={setEveryone} />
      <Button busy={busy} onClick={() => void create()}>
        Create channel
      </Button>
    </StepCard>
  );
}
