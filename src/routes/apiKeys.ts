import { Elysia } from "elysia";

// Placeholder: H3/H6 API key regeneration (being built).
export const apiKeyRoutes = new Elysia();
