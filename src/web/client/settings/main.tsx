import { PageHead } from "../ui/components";
import { startArea } from "../ui/app";

function AccountSection() {
  return <PageHead title="Your account" description="Not built yet." />;
}

/** A person's own settings: every signed-in person has this area. */
startArea("Settings", [{ path: "/settings/account", label: "Account", icon: "user", component: AccountSection }]);
