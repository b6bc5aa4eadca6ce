import type { ComponentType } from "preact";
import type { SectionProps } from "../../ui/app";
import { PageHead } from "../../ui/components";
import { currentPath, navigate } from "../../ui/router";
import { DefaultsTab } from "./defaults";
import { LinkifiersTab } from "./linkifiers";
import { PermissionsTab } from "./permissions";
import { ProfileTab } from "./profile";

/** The organization's settings, one tab per URL: /admin/organization/<tab>. */

const TABS: Array<{ slug: string; label: string; component: ComponentType<SectionProps> }> = [
  { slug: "profile", label: "Profile", component: ProfileTab },
  { slug: "permissions", label: "Permissions", component: PermissionsTab },
  { slug: "defaults", label: "Defaults for new users", component: DefaultsTab },
  { slug: "linkifiers", label: "Linkifiers", component: LinkifiersTab },
];

export default function OrganizationSection(props: SectionProps) {
  const slug = /^\/admin\/organization\/([a-z]+)/.exec(currentPath.value)?.[1];
  const tab = TABS.find((each) => each.slug === slug) ?? TABS[0];
  const Tab = tab.component;
  return (
    <>
      <PageHead title="Organization settings" description="What everyone in the organization sees and may do. Changes apply at once, to everyone." />
      <div class="tabs" role="tablist" aria-label="Settings">
        {TABS.map((each) => (
          <button key={each.slug} type="button" role="tab" id={`tab-${each.slug}`} aria-selected={each === tab} aria-controls="organization-tab" onClick={() => navigate(`/admin/organization/${each.slug}`)}>
            {each.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="organization-tab" aria-labelledby={`tab-${tab.slug}`}>
        <Tab key={tab.slug} {...props} />
      </div>
    </>
  );
}
