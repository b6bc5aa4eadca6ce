import type { SectionProps } from "../../ui/app";
import { currentPath } from "../../ui/router";
import { EditChannel } from "./editChannel";
import { ChannelList } from "./list";

/** Channels: the list at /admin/channels, one channel's settings at /admin/channels/<id>. */
export default function ChannelsSection(_props: SectionProps) {
  const match = /^\/admin\/channels\/(\d+)\/?$/.exec(currentPath.value);
  return match ? <EditChannel channelId={Number(match[1])} /> : <ChannelList />;
}
