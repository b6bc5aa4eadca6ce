import { PageHead } from "../../ui/components";
import type { SectionProps } from "../../ui/app";

export default function InvitationsSection(_props: SectionProps) {
  return <PageHead title="Invitations" description="Not built yet." />;
}
