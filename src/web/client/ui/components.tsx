import { signal } from "@preact/signals";
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure } from "./api";
import { initials } from "./format";

/** The building blocks every page area uses, so they look and behave alike. */

export function PageHead(props: { title: string; description?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-head">
      <div>
        <h1>{props.title}</h1>
        {props.description && <p>{props.description}</p>}
      </div>
      {props.actions && <div class="row">{props.actions}</div>}
    </header>
  );
}

type ButtonProps = JSX.HTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "danger" | "ghost"; small?: boolean; busy?: boolean; disabled?: boolean; type?: "button" | "submit"; /** The id of the form it submits, for a submit button outside it (a dialog footer). */ form?: string };

export function Button({ variant, small, busy, class: extra, children, type = "button", disabled, ...rest }: ButtonProps) {
  const classes = ["btn", variant && `btn-${variant}`, small && "btn-small", extra].filter(Boolean).join(" ");
  return (
    <button {...rest} type={type} class={classes} disabled={disabled || busy} aria-busy={busy || undefined}>
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

export function Field(props: { label: string; id: string; hint?: ComponentChildren; error?: string | null; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint && <p class="hint">{props.hint}</p>}
      {props.error && (
        <p class="field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}

interface InputProps {
  value: string;
  onValue: (value: string) => void;
  id?: string;
  type?: "text" | "email" | "password" | "search" | "url" | "number";
  class?: string;
  placeholder?: string;
  autocomplete?: string;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  maxLength?: number;
  minLength?: number;
  min?: number;
  max?: number;
  name?: string;
  pattern?: string;
  inputMode?: "text" | "numeric" | "email" | "url";
  "aria-label"?: string;
  "aria-describedby"?: string;
}

export function TextInput({ value, onValue, class: extra, type = "text", ...rest }: InputProps) {
  return <input {...rest} type={type} class={`input ${extra ?? ""}`} value={value} onInput={(event) => onValue(event.currentTarget.value)} />;
}

export function TextArea({ value, onValue, ...rest }: Omit<JSX.HTMLAttributes<HTMLTextAreaElement>, "onInput" | "value"> & { value: string; onValue: (value: string) => void }) {
  return <textarea {...rest} class="input" value={value} onInput={(event) => onValue(event.currentTarget.value)} />;
}

export function Select<T extends string | number>(props: { id: string; value: T; options: Array<{ value: T; label: string }>; onValue: (value: T) => void; disabled?: boolean; "aria-label"?: string }) {
  return (
    <select
      id={props.id}
      class="input"
      disabled={props.disabled}
      aria-label={props["aria-label"]}
      value={String(props.value)}
      onChange={(event) => {
        const chosen = props.options.find((option) => String(option.value) === event.currentTarget.value);
        if (chosen) props.onValue(chosen.value);
      }}
    >
      {props.options.map((option) => (
        <option value={String(option.value)}>{option.label}</option>
      ))}
    </select>
  );
}

export function Checkbox(props: { id?: string; label: ComponentChildren; hint?: ComponentChildren; checked: boolean; onChecked: (checked: boolean) => void; disabled?: boolean }) {
  return (
    <label class="check" for={props.id}>
      <input id={props.id} type="checkbox" checked={props.checked} disabled={props.disabled} onChange={(event) => props.onChecked(event.currentTarget.checked)} />
      <span class="check-text">
        <span>{props.label}</span>
        {props.hint && <span class="hint">{props.hint}</span>}
      </span>
    </label>
  );
}

export function Notice(props: { kind?: "error" | "ok" | "warn"; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind ? `notice-${props.kind}` : ""}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

export const Badge = (props: { kind?: "accent" | "ok" | "warn" | "danger"; children: ComponentChildren }) => <span class={`badge ${props.kind ? `badge-${props.kind}` : ""}`}>{props.children}</span>;

export function Avatar(props: { name: string; url?: string | null; large?: boolean }) {
  const size = props.large ? "avatar avatar-lg" : "avatar";
  // Only our own images: the page may load nothing from elsewhere (gravatar URLs fall back to initials).
  if (props.url?.startsWith("/")) return <img class={size} src={props.url} alt="" />;
  return (
    <span class={size} aria-hidden="true">
      {initials(props.name)}
    </span>
  );
}

export const Loading = (props: { label?: string }) => (
  <div class="loading" role="status">
    <span class="spinner" aria-hidden="true" />
    {props.label ?? "Loading…"}
  </div>
);

export const Empty = (props: { children: ComponentChildren }) => <div class="empty">{props.children}</div>;

/** A modal on the native <dialog>: focus is trapped and Escape closes it, for free. */
export function Dialog(props: { title: string; open: boolean; onClose: () => void; children: ComponentChildren; footer?: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} class="dialog" aria-label={props.title} onClose={props.onClose}>
      {props.open && (
        <>
          <div class="dialog-head">
            <h2>{props.title}</h2>
          </div>
          <div class="dialog-body">{props.children}</div>
          {props.footer && <div class="dialog-foot">{props.footer}</div>}
        </>
      )}
    </dialog>
  );
}

/** A read-only value with a copy button (API keys, invitation links). */
export function CopyField(props: { id: string; value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="copy">
      <input id={props.id} class="input" readOnly value={props.value} aria-label={props.label} onFocus={(event) => event.currentTarget.select()} />
      <Button
        onClick={async () => {
          await navigator.clipboard?.writeText(props.value).catch(() => undefined);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        }}
      >
        {copied ? "Copied" : "Copy"}
      </Button>
    </div>
  );
}

/** Saves text as a file the person downloads (zuliprc). */
export function downloadText(fileName: string, text: string) {
  // Not text/plain: Chromium would save it as zuliprc.txt, which the Zulip tools do not look for.
  const url = URL.createObjectURL(new Blob([text], { type: "application/octet-stream" }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface Toast {
  id: number;
  text: string;
  error: boolean;
}
const toasts = signal<Toast[]>([]);
let toastId = 0;

/** A short message in the corner: what just happened, or what went wrong. */
export function toast(text: string, error = false) {
  const id = ++toastId;
  toasts.value = [...toasts.value, { id, text, error }];
  setTimeout(() => (toasts.value = toasts.value.filter((item) => item.id !== id)), error ? 8000 : 3500);
}

export const toastError = (error: unknown) => toast(errorText(error), true);

export const errorText = (error: unknown) => (error instanceof ApiFailure || error instanceof Error ? error.message : String(error));

export function Toasts() {
  return (
    <div class="toasts" aria-live="polite">
      {toasts.value.map((item) => (
        <div key={item.id} class={`toast ${item.error ? "toast-error" : ""}`} role={item.error ? "alert" : "status"}>
          {item.text}
        </div>
      ))}
    </div>
  );
}

/** Data a section loads from the API, with its loading and error states and a way to reload. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error) => current && setState({ error: errorText(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]);
  return { ...state, reload: () => setGeneration((value) => value + 1) };
}

/** Renders loading and error states, and the children once the data is there. */
export function Loaded<T>(props: { state: { data?: T; error?: string; loading: boolean }; children: (data: T) => ComponentChildren }) {
  if (props.state.data !== undefined) return <>{props.children(props.state.data)}</>;
  if (props.state.error) return <Notice kind="error">{props.state.error}</Notice>;
  return <Loading />;
}

/** Runs an action from a button: busy while it runs, a toast for the outcome. */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  async function run(key: string, action: () => Promise<unknown>, done?: string) {
    setBusy(key);
    try {
      await action();
      if (done) toast(done);
      return true;
    } catch (error) {
      toastError(error);
      return false;
    } finally {
      setBusy(null);
    }
  }
  return { busy, run };
}

/** The bar above a list: a search box, and a select of which items to show (active, archived, all). */
export function ListFilter<T extends string>(props: {
  id: string;
  noun: string;
  placeholder: string;
  search: string;
  onSearch: (value: string) => void;
  filter: T;
  onFilter: (value: T) => void;
  options: Array<{ value: T; label: string }>;
}) {
  return (
    <div class="card-head">
      <TextInput class="search" type="search" placeholder={props.placeholder} aria-label={`Search ${props.noun}`} value={props.search} onValue={props.onSearch} />
      <Select id={`${props.id}-filter`} aria-label="Show" value={props.filter} onValue={props.onFilter} options={props.options} />
    </div>
  );
}

/** A dialog holding one form: its error above the fields, Cancel and the submit button below. */
export function FormDialog(props: {
  id: string;
  title: string;
  submitLabel: string;
  open: boolean;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onSubmit: (event: SubmitEvent) => void;
  children: ComponentChildren;
}) {
  return (
    <Dialog
      title={props.title}
      open={props.open}
      onClose={props.onClose}
      footer={
        <>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form={props.id} busy={props.busy}>
            {props.submitLabel}
          </Button>
        </>
      }
    >
      <form id={props.id} onSubmit={props.onSubmit}>
        {props.error && <Notice kind="error">{props.error}</Notice>}
        {props.children}
      </form>
    </Dialog>
  );
}
