import { PageHead } from "../../ui/components";
import type { SectionProps } from "../../ui/app";

export default function ServerSection(_props: SectionProps) {
  return <PageHead title="Server" description="Not built yet." />;
}
