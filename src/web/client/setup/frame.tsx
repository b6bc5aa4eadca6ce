import type { ComponentChildren } from "preact";
import { Toasts } from "../ui/components";

/** The wizard's frame: the brand, where we are among the steps, and the step's card. */

export const STEP_NAMES = ["Setup code", "Organization", "Account", "E-mail", "Channels", "Invite"];

export function WizardFrame(props: { step: number; children: ComponentChildren }) {
  return (
    <div class="solo">
      <div class="solo-card">
        <div class="solo-brand">
          <span class="brand-mark" aria-hidden="true">
            P
          </span>
          Parley
        </div>
        <ol class="steps" aria-label="Setup steps">
          {STEP_NAMES.map((name, index) => (
            <li class={`step ${index < props.step ? "done" : ""}`} aria-current={index === props.step ? "step" : undefined}>
              <span class="step-dot" aria-hidden="true">
                {index < props.step ? "✓" : index + 1}
              </span>
              <span class="step-label">{name}</span>
            </li>
          ))}
        </ol>
        {props.children}
      </div>
      <Toasts />
    </div>
  );
}

/**
 * One step: a form, so Enter does what the main button does. `actions` sit at the end of the
 * footer; `back` at its start.
 */
export function StepCard(props: { title: string; intro?: ComponentChildren; onSubmit: () => void; back?: ComponentChildren; actions: ComponentChildren; children?: ComponentChildren }) {
  return (
    <form
      class="card"
      noValidate
      aria-label={props.title}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      <div class="card-body">
        <h1 class="step-title">{props.title}</h1>
        {props.intro && <div class="step-intro">{props.intro}</div>}
        {props.children}
      </div>
      <div class="card-foot">
        {props.back && <div class="foot-start">{props.back}</div>}
        {props.actions}
      </div>
    </form>
  );
}
