import { useState } from "preact/hooks";
import { api } from "../ui/api";
import { Button, Dialog, Empty, Field, Loaded, Notice, PageHead, TextArea, TextInput, errorText, toast, useAction, useLoad } from "../ui/components";
import { formatDateTime } from "../ui/format";

/** Saved snippets (the reference's /saved_snippets): text the person inserts into messages often. Theirs alone. */

interface Snippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

const loadSnippets = () => api<{ saved_snippets: Snippet[] }>("GET", "/saved_snippets").then((body) => [...body.saved_snippets].sort((a, b) => b.date_created - a.date_created || b.id - a.id));

/** The reference's limit; the server says so too. */
const MAX_TITLE = 60;

export default function SnippetsSection() {
  const state = useLoad(loadSnippets);
  const [editing, setEditing] = useState<Snippet | "new" | null>(null);
  const { busy, run } = useAction();
  const remove = (snippet: Snippet) => confirm(`Delete the snippet “${snippet.title}”?`) && run(`delete-${snippet.id}`, () => api("DELETE", `/saved_snippets/${snippet.id}`), "The snippet was deleted.").then(state.reload);

  return (
    <>
      <PageHead
        title="Saved snippets"
        description="Text you send often, ready to insert from the message box of Zulip apps that support it. Only you see them."
        actions={
          <Button variant="primary" onClick={() => setEditing("new")}>
            New snippet
          </Button>
        }
      />
      <div class="card">
        <Loaded state={state}>
          {(snippets) =>
            snippets.length === 0 ? (
              <Empty>No saved snippets yet.</Empty>
            ) : (
              <ul class="snippets">
                {snippets.map((snippet) => (
                  <li key={snippet.id} data-snippet-id={snippet.id}>
                    <div class="spread">
                      <div class="cell-main grow">
                        <strong>{snippet.title}</strong>
                        <small class="muted">Saved {formatDateTime(snippet.date_created)}</small>
                      </div>
                      <div class="row">
                        <Button small onClick={() => setEditing(snippet)}>
                          Edit
                        </Button>
                        <Button small variant="danger" busy={busy === `delete-${snippet.id}`} onClick={() => remove(snippet)}>
                          Delete
                        </Button>
                      </div>
                    </div>
                    <pre class="snippet-content">{snippet.content}</pre>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </div>
      {editing !== null && <SnippetDialog snippet={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={state.reload} />}
    </>
  );
}

function SnippetDialog(props: { snippet: Snippet | null; onClose: () => void; onSaved: () => void }) {
  const [title, setTitle] = useState(props.snippet?.title ?? "");
  const [content, setContent] = useState(props.snippet?.content ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      if (props.snippet) await api("PATCH", `/saved_snippets/${props.snippet.id}`, { title, content });
      else await api("POST", "/saved_snippets", { title, content });
      toast(props.snippet ? "The snippet was saved." : "The snippet was added.");
      props.onSaved();
      props.onClose();
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={props.snippet ? "Edit snippet" : "New snippet"}
      open
      onClose={props.onClose}
      footer={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} form="snippet-form">
            {props.snippet ? "Save" : "Add snippet"}
          </Button>
        </>
      }
    >
      <form id="snippet-form" onSubmit={save}>
        {problem && <Notice kind="error">{problem}</Notice>}
        <Field label="Title" id="snippet-title">
          <TextInput id="snippet-title" value={title} onValue={setTitle} maxLength={MAX_TITLE} required />
        </Field>
        <Field label="Text" id="snippet-content" hint="Markdown, as in a message.">
          <TextArea id="snippet-content" value={content} onValue={setContent} />
        </Field>
      </form>
    </Dialog>
  );
}
