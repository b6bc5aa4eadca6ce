import { PageHead } from "../../ui/components";
import type { SectionProps } from "../../ui/app";

export default function ChannelsSection(_props: SectionProps) {
  return <PageHead title="Channels" description="Not built yet." />;
}
