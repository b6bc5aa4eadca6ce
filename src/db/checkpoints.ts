import { sql } from "drizzle-orm";
import { writeConnection } from "./client";
import { databaseFilePath } from "./serverStatus";

/**
 * WAL checkpoints off the event loop. SQLite copies its write-ahead log back into the database
 * file (a checkpoint) at the end of whichever commit takes the log past 1,000 pages: that
 * commit writes and flushes megabytes before it returns (40 to 140 ms measured on the CI
 * machine's disk, more on an SD card), and every request waits meanwhile. While the server
 * runs, a worker thread with a connection of its own checkpoints instead, every `everyMs`, and
 * the serving connection's automatic checkpoints are off. PASSIVE checkpoints neither wait for
 * nor hold up readers and the writer; a log the worker could not empty is taken up next time.
 *
 * The worker's code is a string run from a Blob URL, as db/backup.ts explains.
 */
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
let db;
let timer;
self.onmessage = ({ data }) => {
  if (data.stop) {
    clearInterval(timer);
    if (db) db.close();
    postMessage({ stopped: true });
    return;
  }
  try {
    db = new Database(data.path);
    db.run("PRAGMA busy_timeout = 5000");
  } catch (error) {
    postMessage({ failed: String((error && error.message) || error), fatal: true });
    return;
  }
  timer = setInterval(() => {
    try {
      db.run("PRAGMA wal_checkpoint(PASSIVE)");
    } catch (error) {
      postMessage({ failed: String((error && error.message) || error) });
    }
  }, data.everyMs);
};
`;

let workerUrl: string | null = null;

/** SQLite's default: a checkpoint by the committing connection once the log passes this many pages. */
const AUTOMATIC_CHECKPOINT_PAGES = 1000;

const automaticCheckpoints = (pages: number) => writeConnection().run(sql.raw(`PRAGMA wal_autocheckpoint = ${pages}`));

/**
 * Starts checkpointing in a worker thread; `onFailure` hears of a checkpoint that failed. The
 * returned stop() ends the worker and gives the serving connection its automatic checkpoints
 * back. Should the worker itself fail, they come back at once.
 */
export function checkpointInBackground(everyMs: number, onFailure: (message: string) => void): () => Promise<void> {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(workerUrl);
  let stopped: (() => void) | null = null;
  let lastFailure: string | null = null;
  const giveUp = (why: string) => {
    automaticCheckpoints(AUTOMATIC_CHECKPOINT_PAGES);
    onFailure(`${why}; the server checkpoints as it commits again`);
  };
  worker.onmessage = ({ data }: MessageEvent<{ failed?: string; fatal?: boolean; stopped?: boolean }>) => {
    if (data.fatal) giveUp(`the checkpoint worker could not open the database (${data.failed})`);
    // A failure that repeats every turn is told once.
    else if (data.failed !== undefined && data.failed !== lastFailure) onFailure(data.failed);
    lastFailure = data.failed ?? lastFailure;
    if (data.stopped) stopped?.();
  };
  worker.onerror = (event) => giveUp(`the checkpoint worker failed (${event.message})`);
  worker.postMessage({ path: databaseFilePath(writeConnection()), everyMs });
  automaticCheckpoints(0);
  return async () => {
    automaticCheckpoints(AUTOMATIC_CHECKPOINT_PAGES);
    await new Promise<void>((resolve) => {
      stopped = resolve;
      worker.postMessage({ stop: true });
      // A worker that no longer answers is not waited for.
      setTimeout(resolve, 2000).unref();
    });
    worker.terminate();
  };
}
