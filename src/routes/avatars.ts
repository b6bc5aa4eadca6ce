import { Elysia } from "elysia";

// Placeholder: H6 avatars (being built).
export const avatarRoutes = new Elysia();
