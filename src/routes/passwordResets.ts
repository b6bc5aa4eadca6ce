import { Elysia } from "elysia";

// Placeholder: H2 password resets (being built).
export const passwordResetRoutes = new Elysia();
