import { Elysia } from "elysia";

// Placeholder: H5 server status and backup (being built).
export const serverStatusRoutes = new Elysia();
