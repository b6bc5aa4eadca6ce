import { Elysia, type TSchema, t } from "elysia";
import { deactivateUserGroup } from "../actions/deactivateUserGroup";
import { updateUserGroupMembership } from "../actions/userGroupMembers";
import { createUserGroup, updateUserGroup, type UserGroupChanges } from "../actions/userGroups";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { GroupSettingJson, GroupSettingParam } from "../http/params";
import type { GroupSettingValue } from "../model/groupSetting";
import { USER_GROUP_SETTING_NAMES, type UserGroupSettingName } from "../model/userGroupSettings";
import { isUserGroupMember, listUserGroupMembers, listUserGroupSubgroups, listUserGroups } from "../reads/userGroups";

const GroupIdParams = t.Object({ user_group_id: t.Numeric({ multipleOf: 1 }) });
const IdList = t.Optional(t.ArrayString(t.Integer(), { maxItems: 10_000 }));
/** spec 4.7: every setting, can_mention_group included, is changed in the {new, old} form only. */
const GroupSettingUpdate = t.ObjectString({ new: GroupSettingJson, old: t.Optional(GroupSettingJson) });

/** One optional parameter per user group setting, all of one schema. */
const settingParams = <T extends TSchema>(schema: T) => ({
  can_add_members_group: t.Optional(schema),
  can_join_group: t.Optional(schema),
  can_leave_group: t.Optional(schema),
  can_manage_group: t.Optional(schema),
  can_mention_group: t.Optional(schema),
  can_remove_members_group: t.Optional(schema),
});

/** The settings a request named, by name. */
function settingsOf<V>(body: Partial<Record<UserGroupSettingName, V>>): Partial<Record<UserGroupSettingName, V>> {
  return Object.fromEntries(USER_GROUP_SETTING_NAMES.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]));
}

const NOTHING_TO_DO_MEMBERS = 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".';
const NOTHING_TO_DO_SUBGROUPS = 'Nothing to do. Specify at least one of "add" or "delete".';

export const userGroupRoutes = new Elysia()
  .use(authentication)
  .post(
    "/user_groups/create",
    async ({ user, body }) =>
      success(
        await createUserGroup(user, {
          name: body.name,
          description: body.description,
          members: body.members,
          subgroups: body.subgroups ?? [],
          settings: settingsOf<GroupSettingValue>(body),
        }),
      ),
    {
      auth: true,
      body: t.Object({
        name: t.String({ maxLength: 1000 }),
        description: t.String({ maxLength: 10_000 }),
        members: t.ArrayString(t.Integer(), { maxItems: 10_000 }),
        subgroups: IdList,
        ...settingParams(GroupSettingParam),
      }),
    },
  )
  .get(
    "/user_groups",
    async ({ user, query }) => success({ user_groups: await listUserGroups(user, query.include_deactivated_groups ?? false) }),
    { auth: true, query: t.Object({ include_deactivated_groups: t.Optional(t.BooleanString()) }) },
  )
  .patch(
    "/user_groups/:user_group_id",
    async ({ user, params, body }) => {
      const changes: UserGroupChanges = { name: body.name, description: body.description, deactivated: body.deactivated, settings: settingsOf(body) };
      await updateUserGroup(user, params.user_group_id, changes);
      return success();
    },
    {
      auth: true,
      params: GroupIdParams,
      body: t.Object({
        name: t.Optional(t.String({ maxLength: 1000 })),
        description: t.Optional(t.String({ maxLength: 10_000 })),
        deactivated: t.Optional(t.BooleanString()),
        ...settingParams(GroupSettingUpdate),
      }),
    },
  )
  .post(
    "/user_groups/:user_group_id/deactivate",
    async ({ user, params }) => {
      await deactivateUserGroup(user, params.user_group_id);
      return success();
    },
    { auth: true, params: GroupIdParams, body: t.Object({}) },
  )
  .post(
    "/user_groups/:user_group_id/members",
    async ({ user, params, body }) => {
      const changes = { add: body.add ?? [], delete: body.delete ?? [], addSubgroups: body.add_subgroups ?? [], deleteSubgroups: body.delete_subgroups ?? [] };
      await updateUserGroupMembership(user, params.user_group_id, changes, NOTHING_TO_DO_MEMBERS);
      return success();
    },
    { auth: true, params: GroupIdParams, body: t.Object({ add: IdList, delete: IdList, add_subgroups: IdList, delete_subgroups: IdList }) },
  )
  .get(
    "/user_groups/:user_group_id/members",
    async ({ user, params, query }) => success({ members: await listUserGroupMembers(user, params.user_group_id, query.direct_member_only ?? false) }),
    { auth: true, params: GroupIdParams, query: t.Object({ direct_member_only: t.Optional(t.BooleanString()) }) },
  )
  .get(
    "/user_groups/:user_group_id/members/:user_id",
    async ({ user, params, query }) =>
      success({ is_user_group_member: await isUserGroupMember(user, params.user_group_id, params.user_id, query.direct_member_only ?? false) }),
    {
      auth: true,
      params: t.Object({ user_group_id: t.Numeric({ multipleOf: 1 }), user_id: t.Numeric({ multipleOf: 1 }) }),
      query: t.Object({ direct_member_only: t.Optional(t.BooleanString()) }),
    },
  )
  .post(
    "/user_groups/:user_group_id/subgroups",
    async ({ user, params, body }) => {
      const changes = { add: [], delete: [], addSubgroups: body.add ?? [], deleteSubgroups: body.delete ?? [] };
      await updateUserGroupMembership(user, params.user_group_id, changes, NOTHING_TO_DO_SUBGROUPS);
      return success();
    },
    { auth: true, params: GroupIdParams, body: t.Object({ add: IdList, delete: IdList }) },
  )
  .get(
    "/user_groups/:user_group_id/subgroups",
    async ({ user, params, query }) => success({ subgroups: await listUserGroupSubgroups(user, params.user_group_id, query.direct_subgroup_only ?? false) }),
    { auth: true, params: GroupIdParams, query: t.Object({ direct_subgroup_only: t.Optional(t.BooleanString()) }) },
  );
