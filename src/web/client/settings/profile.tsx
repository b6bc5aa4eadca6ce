import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../ui/api";
import type { SectionProps } from "../ui/app";
import { Avatar, Badge, Button, Field, Notice, PageHead, TextInput, errorText, toast } from "../ui/components";
import { ROLE_NAMES } from "../ui/me";

/** Name, picture and address: what others see of the person. */

/** What the server takes (actions/avatars.ts); checked here too, to say so before the upload. */
const AVATAR_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
const MAX_AVATAR_BYTES = 5 * 1024 * 1024;

export default function ProfileSection({ me, refreshSession }: SectionProps) {
  return (
    <>
      <PageHead title="Profile" description="How others in the organization see you." />
      <div>
        <AvatarCard me={me} refreshSession={refreshSession} />
        <NameCard me={me} refreshSession={refreshSession} />
      </div>
    </>
  );
}

type Props = Pick<SectionProps, "me" | "refreshSession">;

function AvatarCard({ me, refreshSession }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const uploaded = me.avatar_url?.startsWith("/") ?? false;

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function choose(file: File | undefined) {
    if (input.current) input.current.value = "";
    if (!file) return;
    setProblem(null);
    if (!AVATAR_TYPES.includes(file.type)) return setProblem("Choose a PNG, JPEG, GIF or WebP image.");
    if (file.size > MAX_AVATAR_BYTES) return setProblem("The picture is larger than 5 MiB; choose a smaller one.");
    setChosen(file);
    setPreview(URL.createObjectURL(file));
  }

  async function change(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    setProblem(null);
    try {
      await action();
      setChosen(null);
      setPreview(null);
      toast(done);
      refreshSession();
    } catch (error) {
      // The server's reason stays on screen; the person chooses another picture.
      setChosen(null);
      setPreview(null);
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  const upload = () => {
    const form = new FormData();
    form.append("file", chosen!, chosen!.name);
    return change(() => api("POST", "/users/me/avatar", form), "Your picture was changed.");
  };

  return (
    <section class="card">
      <div class="card-head">
        <h2>Picture</h2>
      </div>
      <div class="card-body">
        {problem && <Notice kind="error">{problem}</Notice>}
        <div class="row avatar-editor">
          {preview ? <img class="avatar avatar-lg" src={preview} alt="The chosen picture" /> : <Avatar name={me.full_name} url={me.avatar_url} large />}
          <div class="stack grow">
            <p class="hint">{preview ? "This is how your new picture will look." : uploaded ? "Your own picture." : "Without a picture of your own, others see your initials, or your Gravatar in apps that show it."}</p>
            <div class="row">
              {chosen ? (
                <>
                  <Button variant="primary" busy={busy} onClick={upload}>
                    Use this picture
                  </Button>
                  <Button disabled={busy} onClick={() => (setChosen(null), setPreview(null))}>
                    Cancel
                  </Button>
                </>
              ) : (
                <>
                  <Button onClick={() => input.current?.click()}>{uploaded ? "Change picture" : "Upload a picture"}</Button>
                  {uploaded && (
                    <Button variant="danger" busy={busy} onClick={() => confirm("Remove your picture?") && change(() => api("DELETE", "/users/me/avatar"), "Your picture was removed.")}>
                      Remove picture
                    </Button>
                  )}
                </>
              )}
            </div>
          </div>
        </div>
        <input ref={input} type="file" accept={AVATAR_TYPES.join(",")} hidden aria-label="Picture file" onChange={(event) => choose(event.currentTarget.files?.[0])} />
      </div>
    </section>
  );
}

function NameCard({ me, refreshSession }: Props) {
  const [name, setName] = useState(me.full_name);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = name.trim() !== me.full_name;

  async function save(event: Event) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await api("PATCH", "/settings", { full_name: name.trim() });
      toast("Your name was changed.");
      refreshSession();
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="card" onSubmit={save}>
      <div class="card-head">
        <h2>Name and e-mail</h2>
        <Badge kind="accent">{ROLE_NAMES[me.role] ?? "Member"}</Badge>
      </div>
      <div class="card-body">
        {problem && <Notice kind="error">{problem}</Notice>}
        <div class="form-grid">
          <Field label="Full name" id="profile-name">
            <TextInput id="profile-name" value={name} onValue={setName} autocomplete="name" maxLength={100} required />
          </Field>
          <Field label="E-mail address" id="profile-email" hint="You sign in with it.">
            <TextInput id="profile-email" type="email" value={me.email} onValue={() => undefined} readOnly />
          </Field>
        </div>
      </div>
      <div class="card-foot">
        <Button type="submit" variant="primary" busy={busy} disabled={!changed || name.trim() === ""}>
          Save name
        </Button>
      </div>
    </form>
  );
}
