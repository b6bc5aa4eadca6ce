import { useState } from "preact/hooks";
import { Button, Field, TextInput } from "../../ui/components";
import { StepCard } from "../frame";
import type { StepProps } from "../state";

/** The address everyone will open: an http(s) origin with nothing after it, or a reason why not. */
export function originProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return "Enter the full address, such as https://chat.example.com.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "The address starts with https:// (or http://).";
  if (url.username || url.password || url.search || url.hash || url.pathname !== "/") return "Only the address of the server, with nothing after it: such as https://chat.example.com.";
  return null;
}

/** Step 2: what the organization is called and where people will find it. */
export function OrganizationStep({ state, update, next, back }: StepProps) {
  const [errors, setErrors] = useState<{ name?: string | null; url?: string | null }>({});

  function submit() {
    const name = state.orgName.trim();
    const found = {
      name: name === "" ? "The organization needs a name." : name.length > 40 ? "At most 40 characters." : null,
      url: originProblem(state.orgUrl),
    };
    setErrors(found);
    if (!found.name && !found.url) {
      update({ orgUrl: new URL(state.orgUrl.trim()).origin });
      next();
    }
  }

  return (
    <StepCard
      title="Your organization"
      intro={<p>Its name appears in the apps and in every e-mail Parley sends.</p>}
      onSubmit={submit}
      back={<Button onClick={back}>Back</Button>}
      actions={
        <Button variant="primary" type="submit">
          Continue
        </Button>
      }
    >
      <Field label="Organization name" id="org-name" error={errors.name}>
        <TextInput id="org-name" value={state.orgName} onValue={(orgName) => update({ orgName })} maxLength={40} autocomplete="organization" placeholder="Acme Corp" />
      </Field>
      <Field label="Organization URL" id="org-url" error={errors.url} hint="The address you opened this page at. Change it if people will reach the server at another one, through a proxy say. Links in e-mails use it.">
        <TextInput id="org-url" type="url" inputMode="url" value={state.orgUrl} onValue={(orgUrl) => update({ orgUrl })} maxLength={2000} autocomplete="url" />
      </Field>
    </StepCard>
  );
}
