import { render } from "preact";
import { useState } from "preact/hooks";
import { WizardFrame } from "./frame";
import { initialState, type SetupState } from "./state";
import { ChannelsStep } from "./steps/channels";
import { CodeStep } from "./steps/code";
import { DoneStep } from "./steps/done";
import { InvitationsStep } from "./steps/invitations";
import { MailStep } from "./steps/mail";
import { OrganizationStep } from "./steps/organization";
import { OwnerStep } from "./steps/owner";

/**
 * The first-run wizard: the setup code, the organization, its owner (which creates it and signs
 * the owner in), then the optional e-mail, channels and invitations, and on to the console.
 */

const STEPS = [CodeStep, OrganizationStep, OwnerStep, MailStep, ChannelsStep, InvitationsStep, DoneStep];

function Wizard() {
  const [step, setStep] = useState(0);
  const [state, setState] = useState<SetupState>(initialState);
  const go = (to: number) => {
    setStep(to);
    scrollTo(0, 0);
  };
  const Step = STEPS[step];
  document.title = step < STEPS.length - 1 ? `Set up Parley · step ${step + 1} of ${STEPS.length - 1}` : "Parley is set up";
  return (
    <WizardFrame step={step}>
      <Step state={state} update={(changes) => setState((current) => ({ ...current, ...changes }))} next={() => go(step + 1)} back={() => go(step - 1)} />
    </WizardFrame>
  );
}

render(<Wizard />, document.getElementById("app")!);
