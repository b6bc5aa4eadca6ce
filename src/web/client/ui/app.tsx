import { render } from "preact";
import type { ComponentType } from "preact";
import { Loaded, useLoad } from "./components";
import { Frame, type NavItem } from "./frame";
import { loadSession, type Me, type ServerInfo } from "./me";
import { currentPath } from "./router";
import { followColorScheme } from "./theme";

export interface SectionProps {
  me: Me;
  server: ServerInfo;
  /** Loads who is signed in again, after a section changed it (a new name or avatar in the sidebar). */
  refreshSession: () => void;
}

export interface Section extends NavItem {
  component: ComponentType<SectionProps>;
}

/**
 * Starts a signed-in area: loads who is signed in, then shows the section the URL names.
 * `links` lead to other areas; a function of the person when only some may go there.
 */
export function startArea(area: string, sections: Section[], links: NavItem[] | ((me: Me) => NavItem[]) = []) {
  function Area() {
    const session = useLoad(loadSession);
    return (
      <Loaded state={session}>
        {({ me, server }) => {
          const path = currentPath.value;
          const section = sections.find((item) => path === item.path || path.startsWith(`${item.path}/`)) ?? sections[0];
          document.title = `${section.label} · ${area} · ${server.realm_name}`;
          const Component = section.component;
          return (
            <Frame me={me} server={server} area={area} nav={[...sections, ...(typeof links === "function" ? links(me) : links)]}>
              <Component me={me} server={server} refreshSession={session.reload} />
            </Frame>
          );
        }}
      </Loaded>
    );
  }
  followColorScheme();
  render(<Area />, document.getElementById("app")!);
}
