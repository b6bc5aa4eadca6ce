import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiFailure } from "../../ui/api";
import { Button, errorText, Field, Notice, TextArea, TextInput } from "../../ui/components";

/**
 * A linkifier's pattern and URL template, tried live on sample text by the server
 * (POST /realm/filters/test), so what the page shows is what messages will get.
 */

export interface LinkifierDefinition {
  pattern: string;
  url_template: string;
}

interface TestResult {
  matches: Array<{ text: string; url: string }>;
  rendered: string;
}

const SAMPLE = "Fixed in #123; see also #45.";

export function LinkifierEditor(props: { idPrefix: string; initial?: LinkifierDefinition; filterId?: number; submitLabel: string; onSubmit: (definition: LinkifierDefinition) => Promise<unknown>; onCancel?: () => void }) {
  const [pattern, setPattern] = useState(props.initial?.pattern ?? "");
  const [template, setTemplate] = useState(props.initial?.url_template ?? "");
  const [sample, setSample] = useState(SAMPLE);
  const [result, setResult] = useState<TestResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const generation = useRef(0);
  const ready = pattern !== "" && template !== "";

  useEffect(() => {
    const current = ++generation.current;
    if (!ready) {
      setResult(null);
      setProblem(null);
      return;
    }
    const timer = setTimeout(async () => {
      try {
        const answer = await api<TestResult>("POST", "/realm/filters/test", { pattern, url_template: template, text: sample, filter_id: props.filterId });
        if (current !== generation.current) return;
        setResult(answer);
        setProblem(null);
      } catch (failure) {
        if (current !== generation.current) return;
        setResult(null);
        setProblem(failure instanceof ApiFailure ? failure.message : errorText(failure));
      }
    }, 250);
    return () => clearTimeout(timer);
  }, [pattern, template, sample]);

  // The server's reason names the template when the template is at fault.
  const templateProblem = problem !== null && /URL template/.test(problem) ? problem : null;
  const patternProblem = problem !== null && templateProblem === null ? problem : null;

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setSaveError(null);
    try {
      await props.onSubmit({ pattern, url_template: template });
      if (!props.initial) {
        setPattern("");
        setTemplate("");
      }
    } catch (failure) {
      setSaveError(errorText(failure));
    } finally {
      setBusy(false);
    }
  }

  const id = (name: string) => `${props.idPrefix}-${name}`;
  return (
    <form onSubmit={submit}>
      <div class="form-grid">
        <Field label="Pattern" id={id("pattern")} hint="A regular expression. Name the parts the URL uses, like (?P<id>[0-9]+)." error={patternProblem}>
          <TextInput id={id("pattern")} class="mono" value={pattern} onValue={setPattern} placeholder="#(?P<id>[0-9]+)" required />
        </Field>
        <Field label="URL template" id={id("url")} hint="Where a match links, with the named parts in braces." error={templateProblem}>
          <TextInput id={id("url")} class="mono" value={template} onValue={setTemplate} placeholder="https://tracker.example.com/issues/{id}" required />
        </Field>
      </div>
      <Field label="Try it on" id={id("sample")} hint="Sample text, checked as you type.">
        <TextArea id={id("sample")} value={sample} onValue={setSample} />
      </Field>
      {ready && result && (
        <div class="notice" role="status" aria-label="Test result">
          {result.matches.length === 0 ? (
            <p>No matches in this text.</p>
          ) : (
            <ul class="plain-list" aria-label="Matches">
              {result.matches.map((match, index) => (
                <li key={index}>
                  <code>{match.text}</code> → <span class="break">{match.url}</span>
                </li>
              ))}
            </ul>
          )}
          <p class="small muted">In a message:</p>
          {/* HTML from the server's message renderer, as message content is shown. */}
          <div class="break" dangerouslySetInnerHTML={{ __html: result.rendered }} />
        </div>
      )}
      {saveError && <Notice kind="error">{saveError}</Notice>}
      <div class="row">
        <Button variant="primary" type="submit" busy={busy} disabled={!ready || problem !== null}>
          {props.submitLabel}
        </Button>
        {props.onCancel && <Button onClick={props.onCancel}>Cancel</Button>}
      </div>
    </form>
  );
}
