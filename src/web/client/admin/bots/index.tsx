import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Avatar, Badge, Button, Empty, ListFilter, Loaded, PageHead, useAction, useLoad } from "../../ui/components";
import { matchesSearch } from "../../ui/format";
import { CreateBotDialog } from "./createBot";
import { CredentialsDialog } from "./credentials";
import { BOT_TYPE_NAMES, type BotRow, type BotService } from "./types";

/** Every bot in the organization: create them, hand out their credentials, deactivate and reactivate them. */

interface Member {
  user_id: number;
  full_name: string;
  email: string;
  is_bot: boolean;
  is_active: boolean;
  bot_type: number | null;
  bot_owner_id: number | null;
  avatar_url: string | null;
}

// GET /users has every bot, deactivated ones too; GET /bots adds the services of the viewer's own.
async function loadBots(): Promise<BotRow[]> {
  const [users, own] = await Promise.all([
    api<{ members: Member[] }>("GET", "/users", { client_gravatar: false }),
    api<{ bots: Array<{ user_id: number; services: BotService[] }> }>("GET", "/bots"),
  ]);
  const names = new Map(users.members.map((member) => [member.user_id, member.full_name]));
  const services = new Map(own.bots.map((bot) => [bot.user_id, bot.services]));
  return users.members
    .filter((member) => member.is_bot)
    .map((bot) => ({ ...bot, owner_name: bot.bot_owner_id === null ? null : (names.get(bot.bot_owner_id) ?? null), services: services.get(bot.user_id) }));
}

type Filter = "active" | "deactivated" | "all";

export default function BotsSection({ server }: SectionProps) {
  const state = useLoad(loadBots);
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<Filter>("active");
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<{ id: number; justCreated: boolean } | null>(null);
  const { busy, run } = useAction();
  const change = (key: string, action: () => Promise<unknown>, done: string) => run(key, action, done).then((ok) => ok && state.reload());
  const shownBot = shown && state.data?.find((bot) => bot.user_id === shown.id);

  return (
    <>
      <PageHead
        title="Bots"
        description="Programs that read and send messages in this organization. Each has an owner, who can see and replace its API key; administrators can too."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create a bot
          </Button>
        }
      />
      <div class="card">
        <ListFilter
          id="bots"
          noun="bots"
          placeholder="Search by name, e-mail or owner"
          search={search}
          onSearch={setSearch}
          filter={filter}
          onFilter={setFilter}
          options={[
            { value: "active", label: "Active" },
            { value: "deactivated", label: "Deactivated" },
            { value: "all", label: "All bots" },
          ]}
        />
        <Loaded state={state}>
          {(bots) => {
            const matching = bots.filter(
              (bot) =>
                (filter === "all" || bot.is_active === (filter === "active")) &&
                matchesSearch(search, [bot.full_name, bot.email, bot.owner_name]),
            );
            if (bots.length === 0) return <Empty>No bots yet. Create one to connect a program or an integration.</Empty>;
            if (matching.length === 0) return <Empty>No bot matches.</Empty>;
            return (
              <div class="table-wrap">
                <table class="table">
                  <thead>
                    <tr>
                      <th>Bot</th>
                      <th>Type</th>
                      <th>Owner</th>
                      <th class="actions">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {matching.map((bot) => (
                      <tr key={bot.user_id} data-bot-id={bot.user_id}>
                        <td>
                          <div class="row">
                            <Avatar name={bot.full_name} url={bot.avatar_url} />
                            <span class="cell-main">
                              <strong>
                                {bot.full_name} {!bot.is_active && <Badge kind="danger">deactivated</Badge>}
                              </strong>
                              <small class="break">{bot.email}</small>
                            </span>
                          </div>
                        </td>
                        <td data-label="Type">{BOT_TYPE_NAMES[bot.bot_type ?? 0] ?? "Bot"}</td>
                        <td data-label="Owner">{bot.owner_name ?? <span class="muted">nobody</span>}</td>
                        <td class="actions">
                          <Button small onClick={() => setShown({ id: bot.user_id, justCreated: false })} aria-label={`Credentials of ${bot.full_name}`}>
                            Credentials
                          </Button>{" "}
                          {bot.is_active ? (
                            <Button
                              small
                              variant="danger"
                              busy={busy === `deactivate-${bot.user_id}`}
                              aria-label={`Deactivate ${bot.full_name}`}
                              onClick={() =>
                                confirm(`Deactivate ${bot.full_name}? Its API key stops working until it is reactivated.`) &&
                                change(`deactivate-${bot.user_id}`, () => api("DELETE", `/bots/${bot.user_id}`), `${bot.full_name} was deactivated.`)
                              }
                            >
                              Deactivate
                            </Button>
                          ) : (
                            <Button
                              small
                              busy={busy === `reactivate-${bot.user_id}`}
                              aria-label={`Reactivate ${bot.full_name}`}
                              onClick={() => change(`reactivate-${bot.user_id}`, () => api("POST", `/users/${bot.user_id}/reactivate`), `${bot.full_name} was reactivated.`)}
                            >
                              Reactivate
                            </Button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          }}
        </Loaded>
      </div>
      <CreateBotDialog
        open={creating}
        host={new URL(server.realm_uri).hostname}
        onClose={() => setCreating(false)}
        onCreated={(bot) => {
          setCreating(false);
          setShown({ id: bot.user_id, justCreated: true });
          state.reload();
        }}
      />
      {shownBot && <CredentialsDialog key={shownBot.user_id} bot={shownBot} justCreated={shown.justCreated} onClose={() => setShown(null)} />}
    </>
  );
}
