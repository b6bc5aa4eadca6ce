/** Dates and sizes for people, in their own locale. */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export const formatDateTime = (unixSeconds: number) => dateTime.format(new Date(unixSeconds * 1000));

export function formatAgo(unixSeconds: number | null | undefined): string {
  if (!unixSeconds) return "never";
  const seconds = unixSeconds - Date.now() / 1000;
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [["second", 60], ["minute", 60], ["hour", 24], ["day", 30], ["month", 12], ["year", Infinity]];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return unit === "second" && Math.abs(value) < 45 ? (value > 0 ? "in a moment" : "just now") : relative.format(Math.round(value), unit);
    value /= size;
  }
  return formatDateTime(unixSeconds);
}

export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("") || "?";

/** Whether any of the texts holds what was typed in a list's search box, ignoring case; nothing typed matches all. */
export function matchesSearch(search: string, texts: Array<string | null | undefined>): boolean {
  const needle = search.trim().toLowerCase();
  return needle === "" || texts.some((text) => (text ?? "").toLowerCase().includes(needle));
}
