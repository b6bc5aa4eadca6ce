import { useEffect } from "preact/hooks";
import { Icon } from "../../../ui/icons";
import { sameTopic, type Narrow } from "../../model/narrow";
import type { Subscription } from "../../model/types";
import { hashOf } from "../../state/place";
import { isTopicMuted, sortedSubscriptions, topicKey, topicLabel } from "../../state/store";
import { loadTopics, topicsByChannel } from "../../state/topics";
import { unreadCounts } from "../../state/unreads";
import { BrowseChannels } from "./BrowseChannels";
import { Count } from "./Count";

/** Topics shown under the open channel before "more": the rest are a click away. */
const TOPICS_SHOWN = 8;

export function ChannelList(props: { narrow: Narrow }) {
  const openChannel = props.narrow.kind === "channel" ? props.narrow.channelId : undefined;
  return (
    <section class="side-section" aria-labelledby="channels-heading">
      <div class="side-heading">
        <h2 id="channels-heading">Channels</h2>
        <BrowseChannels />
      </div>
      {sortedSubscriptions.value.length === 0 && <p class="side-empty">You are in no channels yet. Browse them with +.</p>}
      {sortedSubscriptions.value.map((sub) => (
        <ChannelEntry key={sub.stream_id} sub={sub} open={sub.stream_id === openChannel} narrow={props.narrow} />
      ))}
    </section>
  );
}

function ChannelEntry(props: { sub: Subscription; open: boolean; narrow: Narrow }) {
  const { sub, open, narrow } = props;
  const count = unreadCounts.value.byChannel.get(sub.stream_id);
  const current = narrow.kind === "channel" && narrow.channelId === sub.stream_id && narrow.topic === undefined;
  return (
    <div class={`side-channel${sub.is_muted ? " muted" : ""}`}>
      <a href={hashOf({ kind: "channel", channelId: sub.stream_id })} class="side-link" data-channel-id={sub.stream_id} aria-current={current ? "page" : undefined}>
        <span class="channel-mark" style={{ color: sub.color }} aria-hidden="true">
          {sub.invite_only ? <Icon name="lock" size={14} /> : "#"}
        </span>
        <span class="side-label">{sub.name}</span>
        <Count count={count} />
      </a>
      {open && <TopicList channelId={sub.stream_id} narrow={narrow} />}
    </div>
  );
}

function TopicList(props: { channelId: number; narrow: Narrow }) {
  const { channelId, narrow } = props;
  useEffect(() => loadTopics(channelId), [channelId]);
  const topics = topicsByChannel.value.get(channelId);
  const counts = unreadCounts.value.byTopic;
  if (!topics) return null;
  const openTopic = narrow.kind === "channel" ? narrow.topic : undefined;
  // Unread and open topics always show, the newest others up to the limit.
  const shown = topics.filter((topic, index) => index < TOPICS_SHOWN || counts.get(topicKey(channelId, topic.name)) || (openTopic !== undefined && sameTopic(topic.name, openTopic)));
  return (
    <ul class="side-topics">
      {shown.map((topic) => (
        <li key={topic.name}>
          <a
            href={hashOf({ kind: "channel", channelId, topic: topic.name })}
            class={`side-link topic${isTopicMuted(channelId, topic.name) ? " muted" : ""}`}
            data-topic={topic.name}
            aria-current={openTopic !== undefined && sameTopic(openTopic, topic.name) ? "page" : undefined}
          >
            <span class="side-label">{topicLabel(topic.name)}</span>
            <Count count={counts.get(topicKey(channelId, topic.name))} />
          </a>
        </li>
      ))}
      {topics.length > shown.length && <li class="side-more">{topics.length - shown.length} more topics: search or scroll the channel</li>}
    </ul>
  );
}
