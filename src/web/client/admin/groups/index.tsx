import { PageHead } from "../../ui/components";
import type { SectionProps } from "../../ui/app";

export default function GroupsSection(_props: SectionProps) {
  return <PageHead title="Groups" description="Not built yet." />;
}
