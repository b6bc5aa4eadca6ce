import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Button, Loaded, PageHead, useLoad } from "../../ui/components";
import { BackupCard } from "./backup";
import { Figures } from "./figures";
import { SmtpCard } from "./smtp";
import type { ServerStatus } from "./types";
import { WarningsCard } from "./warnings";

/** The server itself: how it is doing, its recent warnings, backups and the mail server. */
export default function ServerSection({ me }: SectionProps) {
  const status = useLoad(() => api<ServerStatus>("GET", "/server/status"));
  return (
    <>
      <PageHead
        title="Server"
        description="How this Parley server is doing, what went wrong lately, backups of its database, and the mail server it sends e-mail through."
        actions={
          <Button busy={status.loading && status.data !== undefined} onClick={status.reload}>
            Refresh
          </Button>
        }
      />
      <Loaded state={status}>
        {(figures) => (
          <>
            <Figures status={figures} />
            <BackupCard isOwner={me.is_owner} dataDir={figures.data_dir} />
            <SmtpCard />
            <WarningsCard warnings={figures.recent_warnings} />
          </>
        )}
      </Loaded>
    </>
  );
}
