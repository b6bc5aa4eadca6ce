import { Button, Notice } from "../../ui/components";

/** With unsaved changes the save bar stays in view while scrolling. */
const STICKY = { position: "sticky", bottom: "12px", zIndex: 5 } as const;

/** The bar under a form of settings saved together: how many changes wait, undo, save, and why a save failed. */
export function SaveBar(props: { changed: number; busy: boolean; error: string | null; saveLabel: string; onUndo: () => void }) {
  const { changed } = props;
  return (
    <div class="card save-bar" style={changed > 0 ? STICKY : undefined}>
      <div class="card-body spread">
        <span class="muted small" aria-live="polite">
          {changed === 0 ? "No unsaved changes." : `${changed} unsaved ${changed === 1 ? "change" : "changes"}.`}
        </span>
        <div class="row">
          {changed > 0 && <Button onClick={props.onUndo}>Undo changes</Button>}
          <Button variant="primary" type="submit" disabled={changed === 0} busy={props.busy}>
            {props.saveLabel}
          </Button>
        </div>
      </div>
      {props.error && (
        <div class="card-foot">
          <Notice kind="error">{props.error}</Notice>
        </div>
      )}
    </div>
  );
}
