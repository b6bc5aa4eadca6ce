import type { SectionProps } from "../../ui/app";
import { Loaded, useLoad } from "../../ui/components";
import { currentPath } from "../../ui/router";
import { loadGroupSettingChoices, type GroupSettingChoices, type PermissionRule } from "../shared/groupSettingPicker";
import { loadRealmState } from "../shared/realmState";
import { GroupEditor } from "./edit";
import { GroupList } from "./list";

/** User groups: the list at /admin/groups, one group's page at /admin/groups/<id>. */

export interface GroupsData extends GroupSettingChoices {
  /** Each group setting's rules, as the server states them. */
  rules: Record<string, PermissionRule>;
}

async function loadGroupsData(): Promise<GroupsData> {
  const [choices, realm] = await Promise.all([loadGroupSettingChoices(), loadRealmState(["realm"])]);
  return { ...choices, rules: realm.server_supported_permission_settings.group };
}

export default function GroupsSection(props: SectionProps) {
  const state = useLoad(loadGroupsData);
  const match = /^\/admin\/groups\/(\d+)/.exec(currentPath.value);
  return (
    <Loaded state={state}>
      {(data) => (match ? <GroupEditor me={props.me} groupId={Number(match[1])} data={data} reload={state.reload} /> : <GroupList data={data} reload={state.reload} />)}
    </Loaded>
  );
}
