import { api } from "../../ui/api";
import { Empty, Field, Loaded, TextInput, useLoad } from "../../ui/components";
import { formatBytes } from "../../ui/format";

/**
 * The Uploads card of the Permissions form: the largest file and the two quotas (saved with the
 * rest of the form), and what is in use now, in all and by the people who use the most.
 */

export const UPLOAD_SETTINGS = ["max_file_upload_size_mib", "upload_quota_mib", "upload_quota_per_user_mib"];

const MIB = 1024 * 1024;
/** People listed under the total: the few who fill the quota. */
const LISTED = 10;

interface UploadUsage {
  upload_space_used: number;
  users: Array<{ user_id: number; upload_space_used: number }>;
}

interface Person {
  user_id: number;
  full_name: string;
  is_active: boolean;
}

async function loadUsage() {
  const [usage, people] = await Promise.all([api<UploadUsage>("GET", "/realm/upload_usage"), api<{ members: Person[] }>("GET", "/users", { client_gravatar: false })]);
  return { usage, people: new Map(people.members.map((person) => [person.user_id, person])) };
}

/** Percent of a quota in use: whole numbers, "under 1%" rather than a misleading 0. */
function share(bytes: number, quotaMib: number): { percent: number; text: string } {
  const percent = Math.min(100, (bytes / (quotaMib * MIB)) * 100);
  return { percent, text: bytes > 0 && percent < 1 ? "under 1%" : `${Math.round(percent)}%` };
}

function UsageBar(props: { label: string; percent: number }) {
  return (
    <div class={`usage-bar${props.percent >= 90 ? " usage-bar-full" : ""}`} role="meter" aria-label={props.label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(props.percent)}>
      <span style={{ width: `${props.percent}%` }} />
    </div>
  );
}

/** A quota in MiB; empty for none. */
function QuotaField(props: { name: string; label: string; value: number | null; onValue: (value: number | null) => void; hint: string; error: string | null; disabled: boolean }) {
  return (
    <Field label={props.label} id={props.name} hint={props.hint} error={props.error}>
      <TextInput id={props.name} type="number" inputMode="numeric" min={0} value={props.value === null ? "" : String(props.value)} onValue={(text) => props.onValue(text === "" ? null : Number(text))} disabled={props.disabled} />
    </Field>
  );
}

function Usage(props: { quotaMib: number | null; perPersonMib: number | null }) {
  const state = useLoad(loadUsage);
  return (
    <Loaded state={state}>
      {({ usage, people }) => {
        const total = props.quotaMib === null ? null : share(usage.upload_space_used, props.quotaMib);
        const listed = usage.users.slice(0, LISTED);
        return (
          <div class="usage">
            <h3 id="upload-usage">In use</h3>
            <p class="hint">
              {formatBytes(usage.upload_space_used)} {total ? `of ${formatBytes(props.quotaMib! * MIB)} (${total.text})` : "(no quota for all uploads together)"}
            </p>
            {total && <UsageBar label="The organization's upload quota in use" percent={total.percent} />}
            {listed.length === 0 ? (
              <Empty>Nobody has uploaded a file yet.</Empty>
            ) : (
              <div class="table-wrap">
                <table class="table" aria-labelledby="upload-usage">
                  <thead>
                    <tr>
                      <th>Person, with their bots</th>
                      <th>Uploads</th>
                      <th>Of their quota</th>
                    </tr>
                  </thead>
                  <tbody>
                    {listed.map((row) => {
                      const person = people.get(row.user_id);
                      const name = person ? `${person.full_name}${person.is_active ? "" : " (deactivated)"}` : `User ${row.user_id}`;
                      const own = props.perPersonMib === null ? null : share(row.upload_space_used, props.perPersonMib);
                      return (
                        <tr key={row.user_id}>
                          <td data-label="Person">{name}</td>
                          <td data-label="Uploads">{formatBytes(row.upload_space_used)}</td>
                          <td data-label="Of their quota">{own ? <UsageBar label={`${name}'s upload quota in use`} percent={own.percent} /> : null}{own ? own.text : "No quota"}</td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

export function UploadsCard(props: {
  values: Record<string, unknown>;
  saved: Record<string, unknown>;
  set: (name: string) => (value: unknown) => void;
  ownerOnly: (name: string) => boolean;
  errorFor: (name: string) => string | null;
}) {
  const ownerHint = "Only owners can change this.";
  const hint = (name: string, text: string) => (props.ownerOnly(name) ? ownerHint : text);
  return (
    <section class="card" aria-labelledby="perm-uploads">
      <div class="card-head">
        <h2 id="perm-uploads">Uploads</h2>
      </div>
      <div class="card-body">
        <div class="form-grid">
          <Field label="Largest file, in MiB" id="max_file_upload_size_mib" hint={hint("max_file_upload_size_mib", "At most 25, this server's limit. 0 turns uploads off.")} error={props.errorFor("max_file_upload_size_mib")}>
            <TextInput
              id="max_file_upload_size_mib"
              type="number"
              inputMode="numeric"
              min={0}
              value={String(props.values.max_file_upload_size_mib)}
              onValue={(text) => props.set("max_file_upload_size_mib")(text === "" ? 0 : Number(text))}
              disabled={props.ownerOnly("max_file_upload_size_mib")}
            />
          </Field>
          <QuotaField
            name="upload_quota_mib"
            label="All uploads together, in MiB"
            value={props.values.upload_quota_mib as number | null}
            onValue={props.set("upload_quota_mib")}
            hint={hint("upload_quota_mib", "Leave empty for no limit.")}
            error={props.errorFor("upload_quota_mib")}
            disabled={props.ownerOnly("upload_quota_mib")}
          />
          <QuotaField
            name="upload_quota_per_user_mib"
            label="Each person's uploads, in MiB"
            value={props.values.upload_quota_per_user_mib as number | null}
            onValue={props.set("upload_quota_per_user_mib")}
            hint={hint("upload_quota_per_user_mib", "Their bots' uploads count as theirs. Leave empty for no limit.")}
            error={props.errorFor("upload_quota_per_user_mib")}
            disabled={props.ownerOnly("upload_quota_per_user_mib")}
          />
        </div>
        <Usage quotaMib={props.saved.upload_quota_mib as number | null} perPersonMib={props.saved.upload_quota_per_user_mib as number | null} />
      </div>
    </section>
  );
}
