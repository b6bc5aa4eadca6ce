import type { Person } from "./index";

/** Reset a person's password by e-mail or by a one-time link (to be built). */
export function PasswordResetButton(_props: { person: Person }) {
  return null;
}
