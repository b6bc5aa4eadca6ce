import { Elysia } from "elysia";

// Placeholder: H4 PATCH /realm (being built).
export const realmSettingsRoutes = new Elysia();
