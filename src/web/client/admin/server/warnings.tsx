import { Badge, Empty } from "../../ui/components";
import { formatAgo, formatDateTime } from "../../ui/format";
import type { LoggedWarning } from "./types";

/** The latest warnings and errors of the server's log, newest first. */
export function WarningsCard({ warnings }: { warnings: LoggedWarning[] }) {
  return (
    <section class="card section" aria-labelledby="warnings-title">
      <div class="card-head">
        <h2 id="warnings-title">Recent warnings</h2>
        <span class="hint">The last 100 warnings and errors since the server started</span>
      </div>
      {warnings.length === 0 ? (
        <Empty>No warnings since start.</Empty>
      ) : (
        <ul class="log-list" aria-label="Recent warnings">
          {warnings.map((warning, index) => (
            <li key={`${warning.time}-${index}`}>
              <div class="row">
                <Badge kind={warning.level === "error" ? "danger" : "warn"}>{warning.level === "error" ? "Error" : "Warning"}</Badge>
                <time class="hint" dateTime={new Date(warning.time * 1000).toISOString()} title={formatDateTime(warning.time)}>
                  {formatAgo(warning.time)}
                </time>
              </div>
              <pre class="log-message">{warning.message}</pre>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
