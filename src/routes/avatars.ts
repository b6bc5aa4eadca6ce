import { Elysia } from "elysia";

// Placeholder: H6 avatars (being built).
export const avatarRoutes = new Elysia();

// Placeholder: the avatar images themselves, served outside /api/v1.
export const avatarFileRoutes = new Elysia();
