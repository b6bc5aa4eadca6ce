import { Button } from "../../ui/components";

/**
 * A copy of the database to download. A plain link: the browser sends the session cookie and
 * saves the file itself, however large, without the page holding it in memory.
 */
export function BackupCard(props: { isOwner: boolean; dataDir: string }) {
  return (
    <section class="card section" aria-labelledby="backup-title">
      <div class="card-head">
        <h2 id="backup-title">Backup</h2>
      </div>
      <div class="card-body">
        <p>
          A copy of the database, made while the server keeps running: every account, channel, message and setting, as one SQLite file. Uploaded files and custom emoji are not in it; they are in the <code>files</code> folder of the data directory, <code class="break">{props.dataDir}</code>.
        </p>
        {props.isOwner ? (
          <a class="btn btn-primary" href="/api/v1/server/backup" download>
            Download a backup
          </a>
        ) : (
          <>
            <Button variant="primary" disabled aria-describedby="backup-owners-only">
              Download a backup
            </Button>
            <p class="hint" id="backup-owners-only">
              Only organization owners can download backups: a backup holds every private message and every password hash.
            </p>
          </>
        )}
      </div>
    </section>
  );
}
