import type { CaseList } from "../cases";
import { BUSY, type StallOrg } from "../organization";

/** Channels and subscriptions. */

const busy = (org: StallOrg, index: number) => org.busyChannelIds[index];
const emptyNames = (org: StallOrg) => org.emptyChannelIds.map((_, i) => `empty-${i}`);
const leftNames = () => [BUSY.leftFrom, BUSY.leftFrom + 1, BUSY.leftFrom + 2].map((i) => `busy-${i}`);

export const channelCases: CaseList = {
  "GET /api/v1/streams": { class: "channels", as: "admin", input: "every channel, with the default ones marked", params: () => ({ include_all: true, include_default: true }) },
  "GET /api/v1/streams/:stream_id": { none: "one channel" },
  "GET /api/v1/streams/:stream_id/members": {
    class: "channels",
    as: "member",
    input: "a channel of a thousand people",
    path: (org) => `/api/v1/streams/${busy(org, BUSY.general)}/members`,
  },
  "GET /api/v1/get_stream_id": { none: "one lookup by name" },
  "GET /api/v1/users/:user_id/subscriptions/:stream_id": { none: "one lookup" },
  "PATCH /api/v1/streams/:stream_id": {
    class: "channels",
    as: "admin",
    input: "a channel of a thousand people and thousands of messages made private with protected history",
    path: (org) => `/api/v1/streams/${busy(org, BUSY.madePrivate)}`,
    params: () => ({ is_private: true, history_public_to_subscribers: false }),
  },
  "DELETE /api/v1/streams/:stream_id": {
    class: "channels",
    as: "admin",
    input: "a channel of a thousand people and thousands of messages archived",
    path: (org) => `/api/v1/streams/${busy(org, BUSY.archived)}`,
  },
  "POST /api/v1/default_streams": { none: "one row" },
  "DELETE /api/v1/default_streams": { none: "one row" },
  "GET /api/v1/users/me/subscriptions": {
    class: "subscriptions",
    as: "member",
    input: "twenty channels of a thousand people each, with their subscribers",
    params: () => ({ include_subscribers: true }),
  },
  "POST /api/v1/users/me/subscriptions": {
    class: "subscriptions",
    as: "admin",
    input: "a thousand people subscribed to a hundred channels (100,000 subscriptions)",
    params: (org) => ({ subscriptions: emptyNames(org).map((name) => ({ name })), principals: org.fillerIds }),
  },
  "DELETE /api/v1/users/me/subscriptions": {
    class: "subscriptions",
    as: "admin",
    input: "a thousand people unsubscribed from three busy channels, their unread messages there marked read",
    params: (org) => ({ subscriptions: leftNames(), principals: org.fillerIds }),
  },
  "POST /api/v1/users/me/subscriptions/properties": {
    class: "subscriptions",
    as: "member",
    input: "ten thousand property changes in one request",
    params: (org) => ({
      subscription_data: Array.from({ length: 10_000 }, (_, i) => ({ stream_id: busy(org, i % org.busyChannelIds.length), property: "color", value: `#${(i % 0xffffff).toString(16).padStart(6, "0")}` })),
    }),
  },
  "GET /api/v1/streams/:stream_id/email_address": { none: "one channel's address" },
  "POST /api/v1/user_topics": { none: "one row" },
  "PATCH /api/v1/users/me/subscriptions/muted_topics": { none: "one row" },
};
