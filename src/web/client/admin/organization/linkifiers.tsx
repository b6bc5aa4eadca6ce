import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Button, Dialog, Empty, Loaded, toast, useAction, useLoad } from "../../ui/components";
import { LinkifierEditor, type LinkifierDefinition } from "./linkifierEditor";

/** Linkifiers: patterns in messages and topics that become links, applied in this order. */

interface Linkifier extends LinkifierDefinition {
  id: number;
}

const loadLinkifiers = () => api<{ linkifiers: Linkifier[] }>("GET", "/realm/linkifiers").then((answer) => answer.linkifiers);

export function LinkifiersTab(_props: SectionProps) {
  const state = useLoad(loadLinkifiers);
  const [editing, setEditing] = useState<Linkifier | null>(null);
  const { busy, run } = useAction();
  const change = (key: string, action: () => Promise<unknown>, done: string) => run(key, action, done).then((ok) => ok && state.reload());

  return (
    <>
      <section class="card" aria-labelledby="linkifiers-list">
        <div class="card-head">
          <h2 id="linkifiers-list">Linkifiers</h2>
          <span class="muted small">Applied in this order; an earlier one wins where two match the same text.</span>
        </div>
        <Loaded state={state}>
          {(linkifiers) =>
            linkifiers.length === 0 ? (
              <Empty>No linkifiers yet. Add one below to turn issue numbers and the like into links.</Empty>
            ) : (
              <div class="table-wrap">
                <table class="table">
                  <thead>
                    <tr>
                      <th>Pattern</th>
                      <th>Links to</th>
                      <th class="actions">Actions</th>
                    </tr>
                  </thead>
                  <tbody>
                    {linkifiers.map((linkifier, index) => {
                      const move = (offset: number) => {
                        const order = linkifiers.map((each) => each.id);
                        [order[index], order[index + offset]] = [order[index + offset], order[index]];
                        change(`move-${linkifier.id}`, () => api("PATCH", "/realm/linkifiers", { ordered_linkifier_ids: order }), "Order saved.");
                      };
                      return (
                        <tr key={linkifier.id} data-linkifier-id={linkifier.id}>
                          <td>
                            <code class="break">{linkifier.pattern}</code>
                          </td>
                          <td data-label="Links to">
                            <code class="break">{linkifier.url_template}</code>
                          </td>
                          <td class="actions">
                            <Button small variant="ghost" aria-label={`Move ${linkifier.pattern} up`} disabled={index === 0 || busy !== null} onClick={() => move(-1)}>
                              ↑
                            </Button>
                            <Button small variant="ghost" aria-label={`Move ${linkifier.pattern} down`} disabled={index === linkifiers.length - 1 || busy !== null} onClick={() => move(1)}>
                              ↓
                            </Button>{" "}
                            <Button small aria-label={`Edit ${linkifier.pattern}`} onClick={() => setEditing(linkifier)}>
                              Edit
                            </Button>{" "}
                            <Button
                              small
                              variant="danger"
                              aria-label={`Delete ${linkifier.pattern}`}
                              busy={busy === `delete-${linkifier.id}`}
                              onClick={() => confirm(`Delete the linkifier ${linkifier.pattern}? Messages already sent keep their links.`) && change(`delete-${linkifier.id}`, () => api("DELETE", `/realm/filters/${linkifier.id}`), "Linkifier deleted.")}
                            >
                              Delete
                            </Button>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )
          }
        </Loaded>
      </section>

      <section class="card" aria-labelledby="linkifier-add">
        <div class="card-head">
          <h2 id="linkifier-add">Add a linkifier</h2>
        </div>
        <div class="card-body">
          <LinkifierEditor
            idPrefix="new-linkifier"
            submitLabel="Add linkifier"
            onSubmit={async (definition) => {
              await api("POST", "/realm/filters", { ...definition });
              toast("Linkifier added. New messages use it.");
              state.reload();
            }}
          />
        </div>
      </section>

      <Dialog title="Edit linkifier" open={editing !== null} onClose={() => setEditing(null)}>
        {editing && (
          <LinkifierEditor
            idPrefix="edit-linkifier"
            initial={editing}
            filterId={editing.id}
            submitLabel="Save linkifier"
            onCancel={() => setEditing(null)}
            onSubmit={async (definition) => {
              await api("PATCH", `/realm/filters/${editing.id}`, { ...definition });
              toast("Linkifier saved.");
              setEditing(null);
              state.reload();
            }}
          />
        )}
      </Dialog>
    </>
  );
}
