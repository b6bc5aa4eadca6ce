/** Organization roles (spec 2.10). Lower numbers carry more privilege. */
export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;
export type Role = (typeof Role)[keyof typeof Role];

export const ALL_ROLES: readonly Role[] = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

export const isRole = (value: number): value is Role => (ALL_ROLES as readonly number[]).includes(value);
export const isOwner = (role: number) => role === Role.OWNER;
export const isAdministrator = (role: number) => role <= Role.ADMINISTRATOR;
export const isModerator = (role: number) => role <= Role.MODERATOR;
export const isGuest = (role: number) => role === Role.GUEST;

export const roleName: Record<Role, string> = {
  100: "organization owner",
  200: "organization administrator",
  300: "moderator",
  400: "member",
  600: "guest",
};

/** Names of the system groups that mirror roles, from the widest to the narrowest. */
export const SystemGroup = {
  INTERNET: "role:internet",
  EVERYONE: "role:everyone",
  MEMBERS: "role:members",
  FULL_MEMBERS: "role:fullmembers",
  MODERATORS: "role:moderators",
  ADMINISTRATORS: "role:administrators",
  OWNERS: "role:owners",
  NOBODY: "role:nobody",
} as const;
export type SystemGroupName = (typeof SystemGroup)[keyof typeof SystemGroup];

/**
 * Each system group contains the next narrower one as a subgroup, so "is U in role:moderators"
 * is answered by the same recursive resolver as any user group.
 */
export const SYSTEM_GROUP_CHAIN: readonly SystemGroupName[] = [
  SystemGroup.INTERNET,
  SystemGroup.EVERYONE,
  SystemGroup.MEMBERS,
  SystemGroup.FULL_MEMBERS,
  SystemGroup.MODERATORS,
  SystemGroup.ADMINISTRATORS,
  SystemGroup.OWNERS,
];

/** The system group whose direct members are exactly the users of a role. */
export const directGroupOfRole: Record<Role, SystemGroupName> = {
  100: SystemGroup.OWNERS,
  200: SystemGroup.ADMINISTRATORS,
  300: SystemGroup.MODERATORS,
  400: SystemGroup.MEMBERS,
  600: SystemGroup.EVERYONE,
};

export const systemGroupDescription: Record<SystemGroupName, string> = {
  "role:internet": "Everyone on the Internet",
  "role:everyone": "Everyone including guests",
  "role:members": "Everyone except guests",
  "role:fullmembers": "Members who can do everything members can",
  "role:moderators": "Moderators",
  "role:administrators": "Administrators",
  "role:owners": "Owners",
  "role:nobody": "Nobody",
};
