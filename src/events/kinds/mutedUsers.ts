/** A user muted or unmuted someone: the whole new list, to that user's own clients. */
export interface MutedUsersEvent {
  type: "muted_users";
  muted_users: Array<{ id: number; timestamp: number }>;
}
