/**
 * Every event the server sends, as one discriminated union. Each feature defines its event
 * shapes in events/kinds/<feature>.ts and adds its union here.
 */
import type { UserEvent } from "./kinds/users";

export type AnyEvent = UserEvent;

/** An event together with the users who should receive it. */
export interface Addressed {
  event: AnyEvent;
  userIds: number[];
}
