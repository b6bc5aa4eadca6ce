import { Elysia, t } from "elysia";
import { authentication } from "../http/auth";
import { success } from "../http/errors";
import { makeBackup } from "../reads/serverBackup";
import { getServerStatus } from "../reads/serverStatus";

/**
 * Parley additions (docs/API.md): the server's figures and recent warnings for administrators,
 * and a copy of the database for owners.
 */
export const serverStatusRoutes = new Elysia()
  .use(authentication)
  .get("/server/status", async ({ user }) => success(await getServerStatus(user)), { auth: true, query: t.Object({}) })
  .get(
    "/server/backup",
    async ({ user, request, server }) => {
      // Copying a large database can take longer than the connection's idle timeout, with no byte sent meanwhile.
      server?.timeout(request, 0);
      const backup = await makeBackup(user, request.signal);
      return new Response(backup.body, {
        headers: {
          "content-type": "application/vnd.sqlite3",
          "content-disposition": `attachment; filename="${backup.fileName}"`,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    },
    { auth: true, query: t.Object({}) },
  );
