import { Select } from "../../ui/components";

/** A time limit in seconds, or null for none, chosen from the usual lengths. */

const PRESETS: Array<[number | null, string]> = [
  [null, "No limit"],
  [120, "2 minutes"],
  [600, "10 minutes"],
  [3600, "1 hour"],
  [86_400, "1 day"],
  [604_800, "1 week"],
];

export function describeSeconds(seconds: number): string {
  const units: Array<[number, string]> = [
    [604_800, "week"],
    [86_400, "day"],
    [3600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  const [size, unit] = units.find(([size]) => seconds % size === 0 && seconds >= size) ?? [1, "second"];
  const count = seconds / size;
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

export function TimeLimitSelect(props: { id: string; value: number | null; onValue: (value: number | null) => void; disabled?: boolean }) {
  const options = PRESETS.map(([value, label]) => ({ value: value === null ? "none" : String(value), label }));
  // A value set elsewhere (another client, the API) is shown as it is.
  if (props.value !== null && !PRESETS.some(([value]) => value === props.value)) options.push({ value: String(props.value), label: describeSeconds(props.value) });
  return (
    <Select id={props.id} value={props.value === null ? "none" : String(props.value)} options={options} disabled={props.disabled} onValue={(chosen) => props.onValue(chosen === "none" ? null : Number(chosen))} />
  );
}
