import { api } from "../ui/api";
import { Badge, Button, Empty, Loaded, PageHead, useAction, useLoad } from "../ui/components";
import { formatAgo, formatDateTime } from "../ui/format";

/** The browsers signed in as the person (Parley's /users/me/sessions): which is which, and signing them out. */

interface Session {
  id: number;
  created: number;
  last_active: number;
  expires: number;
  user_agent: string;
  ip_address: string;
  is_current: boolean;
}

/** This browser first, then the others as the server lists them (most recently used first). */
const loadSessions = () => api<{ sessions: Session[] }>("GET", "/users/me/sessions").then((body) => [...body.sessions].sort((a, b) => Number(b.is_current) - Number(a.is_current)));

/** "Firefox on Windows" from a User-Agent header: enough to tell one's own browsers apart. */
export function describeBrowser(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? "Edge"
    : /OPR\//.test(userAgent)
      ? "Opera"
      : /Firefox\//.test(userAgent)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(userAgent)
          ? "Chrome"
          : /Safari\//.test(userAgent)
            ? "Safari"
            : null;
  const system = /Android/.test(userAgent)
    ? "Android"
    : /iPhone|iPad/.test(userAgent)
      ? "iOS"
      : /Windows/.test(userAgent)
        ? "Windows"
        : /Mac OS X|Macintosh/.test(userAgent)
          ? "macOS"
          : /CrOS/.test(userAgent)
            ? "ChromeOS"
            : /Linux/.test(userAgent)
              ? "Linux"
              : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? (userAgent.trim() ? userAgent.slice(0, 60) : "Unknown browser");
}

export default function SessionsSection() {
  const state = useLoad(loadSessions);
  const { busy, run } = useAction();
  const signOut = (session: Session) => run(`end-${session.id}`, () => api("DELETE", `/users/me/sessions/${session.id}`), `${describeBrowser(session.user_agent)} was signed out.`).then(state.reload);
  const signOutOthers = (others: Session[]) =>
    confirm(`Sign out ${others.length === 1 ? "the other browser" : `the ${others.length} other browsers`}?`) &&
    run("end-others", () => Promise.all(others.map((session) => api("DELETE", `/users/me/sessions/${session.id}`))), "Every other browser was signed out.").then(state.reload);

  return (
    <Loaded state={state}>
      {(sessions) => {
        const others = sessions.filter((session) => !session.is_current);
        return (
          <>
            <PageHead
              title="Sessions"
              description="The browsers signed in to your account. Sign out any you do not recognize, then change your password."
              actions={
                others.length > 0 && (
                  <Button variant="danger" busy={busy === "end-others"} onClick={() => signOutOthers(others)}>
                    Sign out everywhere else
                  </Button>
                )
              }
            />
            <div class="card">
              {sessions.length === 0 ? (
                <Empty>No browser is signed in; programs use your API key instead.</Empty>
              ) : (
                <div class="table-wrap">
                  <table class="table">
                    <thead>
                      <tr>
                        <th>Browser</th>
                        <th>Address</th>
                        <th>Last active</th>
                        <th>Signed in</th>
                        <th class="actions">Actions</th>
                      </tr>
                    </thead>
                    <tbody>
                      {sessions.map((session) => (
                        <tr key={session.id} data-session-id={session.id}>
                          <td>
                            <span class="cell-main">
                              <strong>
                                {describeBrowser(session.user_agent)} {session.is_current && <Badge kind="ok">this browser</Badge>}
                              </strong>
                            </span>
                          </td>
                          <td data-label="Address">
                            <span class="mono">{session.ip_address}</span>
                          </td>
                          <td data-label="Last active" class="nowrap">
                            {session.is_current ? "now" : formatAgo(session.last_active)}
                          </td>
                          <td data-label="Signed in" class="nowrap">
                            {formatDateTime(session.created)}
                          </td>
                          <td class="actions">
                            {!session.is_current && (
                              <Button small variant="danger" busy={busy === `end-${session.id}`} onClick={() => signOut(session)}>
                                Sign out
                              </Button>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </div>
          </>
        );
      }}
    </Loaded>
  );
}
