import { PageHead } from "../../ui/components";
import type { SectionProps } from "../../ui/app";

export default function OrganizationSection(_props: SectionProps) {
  return <PageHead title="Organization" description="Not built yet." />;
}
