import { api } from "../../ui/api";

/**
 * Whether the server can send e-mail now: true, false, or null when it cannot be told (then
 * pages offer mail and show the server's answer if it fails).
 */
export async function mailAvailable(): Promise<boolean | null> {
  try {
    const answer = await api<{ source: string }>("GET", "/server/smtp");
    return answer.source !== "none";
  } catch {
    return null;
  }
}
