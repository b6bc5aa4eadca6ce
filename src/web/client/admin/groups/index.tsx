import type { SectionProps } from "../../ui/app";
import { Loaded, useLoad } from "../../ui/components";
import { currentPath } from "../../ui/router";
import { loadGroupsData } from "./data";
import { GroupEditor } from "./edit";
import { GroupList } from "./list";

/** User groups: the list at /admin/groups, one group's page at /admin/groups/<id>. */

export default function GroupsSection(props: SectionProps) {
  const state = useLoad(loadGroupsData);
  const match = /^\/admin\/groups\/(\d+)/.exec(currentPath.value);
  return (
    <Loaded state={state}>
      {(data) => (match ? <GroupEditor me={props.me} groupId={Number(match[1])} data={data} reload={state.reload} /> : <GroupList data={data} reload={state.reload} />)}
    </Loaded>
  );
}
