import { useState } from "preact/hooks";
import { api } from "../../ui/api";
import type { SectionProps } from "../../ui/app";
import { Button, CopyField, Field, Loaded, TextArea, TextInput, useAction, useLoad } from "../../ui/components";
import { loadRealmState, type RealmState } from "../shared/realmState";

/** The organization's name and description, as sign-in pages and clients show them. */
export function ProfileTab(_props: SectionProps) {
  const state = useLoad(() => loadRealmState(["realm"]));
  return <Loaded state={state}>{(realm) => <ProfileForm realm={realm} reload={state.reload} />}</Loaded>;
}

function ProfileForm({ realm, reload }: { realm: RealmState; reload: () => void }) {
  const [name, setName] = useState(realm.realm_name);
  const [description, setDescription] = useState(realm.realm_description);
  const { busy, run } = useAction();
  const changes = { ...(name.trim() !== realm.realm_name ? { name: name.trim() } : {}), ...(description !== realm.realm_description ? { description } : {}) };
  const dirty = Object.keys(changes).length > 0;
  return (
    <form
      class="card"
      onSubmit={(event) => {
        event.preventDefault();
        run("profile", () => api("PATCH", "/realm", changes), "Saved. Everyone sees the change now; this page's sidebar after a reload.").then((ok) => ok && reload());
      }}
    >
      <div class="card-body">
        <Field label="Organization name" id="org-name" hint="At most 40 characters.">
          <TextInput id="org-name" value={name} onValue={setName} required maxLength={40} />
        </Field>
        <Field label="Description" id="org-description" hint="Shown on the sign-in page and in apps. Markdown works.">
          <TextArea id="org-description" value={description} onValue={setDescription} />
        </Field>
        <Field label="Address" id="org-url" hint="Where people and apps reach this organization. It is set when the server is set up.">
          <CopyField id="org-url" value={String(realm.realm_url ?? "")} label="Address" />
        </Field>
      </div>
      <div class="card-foot">
        <Button variant="primary" type="submit" disabled={!dirty} busy={busy === "profile"}>
          Save profile
        </Button>
      </div>
    </form>
  );
}
