import { PageHead } from "../../ui/components";
import type { SectionProps } from "../../ui/app";

export default function BotsSection(_props: SectionProps) {
  return <PageHead title="Bots" description="Not built yet." />;
}
