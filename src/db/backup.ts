/**
 * A consistent copy of the live database, made while the server keeps serving. A file copy of
 * a WAL database can catch the main file and its log at different moments; SQLite's VACUUM INTO
 * instead writes what one read transaction sees, as a compact database of its own. It runs on
 * a read-only connection in a worker thread: writers go on meanwhile (WAL lets a reader and a
 * writer run together), and this thread keeps answering requests however long the copy takes.
 *
 * The worker's code is a string run from a Blob URL: a compiled `parley` binary embeds only the
 * files named on its build line, so a worker module file would be missing from it.
 */
const WORKER_SOURCE = `
const { Database } = require("bun:sqlite");
self.onmessage = ({ data }) => {
  let db;
  try {
    db = new Database(data.source, { readonly: true });
    db.run("PRAGMA busy_timeout = 5000");
    db.run("VACUUM INTO ?", [data.target]);
    postMessage({ ok: true });
  } catch (error) {
    postMessage({ ok: false, message: String((error && error.message) || error) });
  } finally {
    if (db) db.close();
  }
};
`;

let workerUrl: string | null = null;

/** Writes a copy of the database at `source` to `target`, which must not exist yet. */
export function copyDatabase(source: string, target: string): Promise<void> {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
  const worker = new Worker(workerUrl);
  return new Promise<void>((resolve, reject) => {
    worker.onmessage = ({ data }: MessageEvent<{ ok: boolean; message?: string }>) => {
      if (data.ok) resolve();
      else reject(new Error(`Copying the database failed: ${data.message}`));
    };
    worker.onerror = (event) => reject(new Error(`Copying the database failed: ${event.message}`));
    worker.postMessage({ source, target });
  }).finally(() => worker.terminate());
}
