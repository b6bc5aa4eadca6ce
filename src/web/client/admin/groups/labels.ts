/** The six permission settings of a user group, as the group's page names and explains them. */
export const GROUP_PERMISSIONS = [
  { name: "can_mention_group", label: "Who can mention this group", hint: "Mentioning the group notifies everyone in it." },
  { name: "can_manage_group", label: "Who can manage this group", hint: "Rename it, change its permissions, add and remove anyone." },
  { name: "can_add_members_group", label: "Who can add members", hint: "Add people and subgroups." },
  { name: "can_remove_members_group", label: "Who can remove members", hint: "Remove people and subgroups." },
  { name: "can_join_group", label: "Who can join", hint: "Add themselves." },
  { name: "can_leave_group", label: "Who can leave", hint: "Remove themselves." },
] as const;

export type GroupPermissionName = (typeof GROUP_PERMISSIONS)[number]["name"];
