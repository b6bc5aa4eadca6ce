import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { signOut } from "./api";
import { Avatar, Button, Toasts } from "./components";
import { Icon, type IconName } from "./icons";
import type { Me, ServerInfo } from "./me";
import { ROLE_NAMES } from "./me";
import { currentPath, followLink } from "./router";

export interface NavItem {
  path: string;
  label: string;
  icon: IconName;
  /** Heading of the group the item starts. */
  group?: string;
  /** A link to another area: the browser loads it. */
  reload?: boolean;
  /** Shown above the area's own sections (the way back to the chat). */
  top?: boolean;
}

/** Sidebar and content; on a phone the sidebar is a drawer behind the menu button. */
export function Frame(props: { me: Me; server: ServerInfo; area: string; nav: NavItem[]; children: ComponentChildren }) {
  const drawer = useSignal(false);
  const path = currentPath.value;
  const nav = [...props.nav.filter((item) => item.top), ...props.nav.filter((item) => !item.top)];
  // A link into another area is never the page shown here (the chat's "/" would match every path).
  const current = nav.find((item) => !item.reload && (path === item.path || path.startsWith(item.path.endsWith("/") ? item.path : `${item.path}/`)));
  return (
    <div class={`frame ${drawer.value ? "drawer-open" : ""}`} onClick={followLink}>
      <a class="sr-only" href="#main">
        Skip to content
      </a>
      <div class="topbar">
        <Button variant="ghost" class="icon-btn" aria-label="Menu" aria-expanded={drawer.value} onClick={() => (drawer.value = !drawer.value)}>
          <Icon name="menu" size={20} />
        </Button>
        <span class="topbar-title">{current?.label ?? props.area}</span>
      </div>
      <div class="scrim" onClick={() => (drawer.value = false)} />
      <aside class="sidebar" aria-label={props.area} onClick={(event) => (event.target as Element).closest("a") && (drawer.value = false)}>
        <div class="brand">
          <span class="brand-mark" aria-hidden="true">
            P
          </span>
          <span class="brand-name">
            {props.server.realm_name}
            <small>{props.area}</small>
          </span>
        </div>
        <nav class="nav">
          {nav.map((item) => (
            <>
              {item.group && <div class="nav-heading">{item.group}</div>}
              <a href={item.path} data-reload={item.reload || undefined} aria-current={item === current ? "page" : undefined}>
                <span class="nav-icon">
                  <Icon name={item.icon} />
                </span>
                {item.label}
              </a>
            </>
          ))}
        </nav>
        <div class="sidebar-foot">
          <div class="me">
            <Avatar name={props.me.full_name} url={props.me.avatar_url} />
            <span class="me-text">
              <span>{props.me.full_name}</span>
              <small>{ROLE_NAMES[props.me.role] ?? "Member"}</small>
            </span>
          </div>
          <Button variant="ghost" small onClick={signOut}>
            Sign out
          </Button>
        </div>
      </aside>
      <main id="main" class="content">
        <div class="content-inner">{props.children}</div>
      </main>
      <Toasts />
    </div>
  );
}
