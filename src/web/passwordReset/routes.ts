import { Elysia } from "elysia";

// Placeholder: the page a password-reset link opens (being built).
export const passwordResetPageRoutes = new Elysia();
