/** An invitation as GET /invites lists it. */
export interface Invite {
  id: number;
  invited_by_user_id: number;
  /** UNIX seconds. */
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  notify_referrer_on_join: boolean;
  is_multiuse: boolean;
  email?: string;
  link_url?: string;
}

export interface ChannelChoice {
  stream_id: number;
  name: string;
  invite_only: boolean;
}
