import { defineConfig } from "drizzle-kit";

// PostgreSQL's schema and migrations (src/db/postgres/tables.ts); SQLite's are in drizzle.config.ts.
// Generate with: drizzle-kit generate --config drizzle.postgres.config.ts
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/postgres/tables.ts",
  out: "./migrations/postgres",
});
