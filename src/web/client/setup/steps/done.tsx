import type { StepProps } from "../state";

/** The end: what was set up, and the way into the console (the owner is signed in already). */
export function DoneStep({ state }: StepProps) {
  const mail = { saved: "E-mail goes out through the mail server you saved.", environment: "E-mail goes out through the mail server the environment sets.", skipped: "No mail server yet: set one in the admin console’s Server section." }[state.mail];
  return (
    <section class="card" aria-label="Done">
      <div class="card-body">
        <h1 class="step-title">{state.orgName.trim()} is ready</h1>
        <ul class="step-list">
          <li>
            The organization is at <strong>{state.orgUrl}</strong>.
          </li>
          <li>You are signed in as its owner, {state.owner?.email}.</li>
          <li>{mail}</li>
          <li>{state.channelsCreated.length === 0 ? "No channels were created here." : `Channels created: ${state.channelsCreated.map((name) => `#${name}`).join(", ")}.`}</li>
          <li>{state.invited.length === 0 ? "Nobody was invited yet." : `Invited: ${state.invited.join(", ")}.`}</li>
        </ul>
      </div>
      <div class="card-foot">
        <a class="btn btn-primary" href="/">
          Open the chat
        </a>
        <a class="btn" href="/admin/">
          Go to the admin console
        </a>
      </div>
    </section>
  );
}
