/** The three emoji namespaces of spec 2.4; emoji_code is only unique within one. */
export const REACTION_TYPES = ["unicode_emoji", "realm_emoji", "svc_extra_emoji"] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];
