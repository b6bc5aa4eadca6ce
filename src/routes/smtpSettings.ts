import { Elysia } from "elysia";

// Placeholder: H1 SMTP settings (being built).
export const smtpSettingsRoutes = new Elysia();
