import { describe, expect, test } from "bun:test";
import { PushFlag, type PushFacts, pushReason } from "../../src/model/pushTriggers";

/** The reference's notification triggers (model/pushTriggers.ts), for pushes and for e-mail. */

const base: PushFacts = { direct: false, flags: 0, read: false, senderMuted: false, online: false, settings: {} };
const inChannel = (facts: Partial<PushFacts> = {}, channel: Partial<NonNullable<PushFacts["channel"]>> = {}): PushFacts => ({
  ...base,
  channel: { muted: false, pushNotifications: null, emailNotifications: null, wildcardMentionsNotify: null, ...channel },
  ...facts,
});
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

describe("pushReason", () => {
  test("direct messages and personal or group mentions, by enable_offline_*_notifications", () => {
    expect(pushReason({ ...base, direct: true })).toBe("direct_message");
    expect(pushReason(inChannel({ flags: PushFlag.MENTIONED }))).toBe("mentioned");
    expect(pushReason(inChannel({ flags: PushFlag.GROUP_MENTIONED }))).toBe("mentioned");
    expect(pushReason({ ...base, direct: true, settings: { enable_offline_push_notifications: false } })).toBeNull();
    expect(pushReason({ ...base, direct: true, settings: { enable_offline_push_notifications: false } }, "email")).toBe("direct_message");
    expect(pushReason({ ...base, direct: true, settings: { enable_offline_email_notifications: false } }, "email")).toBeNull();
  });

  test("nothing for a message already read or from a muted sender", () => {
    expect(pushReason({ ...base, direct: true, read: true })).toBeNull();
    expect(pushReason({ ...base, direct: true, senderMuted: true })).toBeNull();
    expect(pushReason({ ...base, direct: true, senderMuted: true }, "email")).toBeNull();
  });

  test("someone active elsewhere is pushed only with enable_online_push_notifications; e-mail does not ask", () => {
    expect(pushReason({ ...base, direct: true, online: true })).toBe("direct_message");
    expect(pushReason({ ...base, direct: true, online: true, settings: { enable_online_push_notifications: false } })).toBeNull();
    expect(pushReason({ ...base, direct: true, online: true, settings: { enable_online_push_notifications: false } }, "email")).toBe("direct_message");
  });

  test("a plain channel message: only where the channel is set to notify", () => {
    expect(pushReason(inChannel())).toBeNull();
    expect(pushReason(inChannel({}, { pushNotifications: true }))).toBe("channel");
    expect(pushReason(inChannel({ settings: { enable_stream_push_notifications: true } }))).toBe("channel");
    expect(pushReason(inChannel({ settings: { enable_stream_push_notifications: true } }, { pushNotifications: false }))).toBeNull();
    expect(pushReason(inChannel({}, { pushNotifications: true }), "email")).toBeNull();
    expect(pushReason(inChannel({}, { emailNotifications: true }), "email")).toBe("channel");
  });

  test("wildcard mentions follow wildcard_mentions_notify, the channel's override first", () => {
    const wildcard = { flags: PushFlag.STREAM_WILDCARD_MENTIONED };
    expect(pushReason(inChannel(wildcard))).toBe("wildcard_mentioned");
    expect(pushReason(inChannel({ ...wildcard, settings: { wildcard_mentions_notify: false } }))).toBeNull();
    expect(pushReason(inChannel({ ...wildcard, settings: { wildcard_mentions_notify: false } }, { wildcardMentionsNotify: true }))).toBe("wildcard_mentioned");
    expect(pushReason(inChannel({ flags: PushFlag.TOPIC_WILDCARD_MENTIONED }, { wildcardMentionsNotify: false }))).toBeNull();
  });

  test("alert words, and followed topics by their own setting", () => {
    expect(pushReason(inChannel({ flags: PushFlag.HAS_ALERT_WORD }))).toBe("alert_word");
    expect(pushReason(inChannel({ topicPolicy: FOLLOWED }))).toBe("followed_topic");
    expect(pushReason(inChannel({ topicPolicy: FOLLOWED, settings: { enable_followed_topic_push_notifications: false } }))).toBeNull();
    expect(pushReason(inChannel({ topicPolicy: FOLLOWED, settings: { enable_followed_topic_email_notifications: false } }), "email")).toBeNull();
  });

  test("muted topics and muted channels are quiet but for personal mentions; an unmuted or followed topic in a muted channel is not", () => {
    expect(pushReason(inChannel({ topicPolicy: MUTED, flags: PushFlag.STREAM_WILDCARD_MENTIONED | PushFlag.HAS_ALERT_WORD }, { pushNotifications: true }))).toBeNull();
    expect(pushReason(inChannel({ topicPolicy: MUTED, flags: PushFlag.MENTIONED }))).toBe("mentioned");
    expect(pushReason(inChannel({ flags: PushFlag.STREAM_WILDCARD_MENTIONED }, { muted: true }))).toBeNull();
    expect(pushReason(inChannel({ flags: PushFlag.MENTIONED }, { muted: true }))).toBe("mentioned");
    expect(pushReason(inChannel({ topicPolicy: UNMUTED, flags: PushFlag.STREAM_WILDCARD_MENTIONED }, { muted: true }))).toBe("wildcard_mentioned");
    expect(pushReason(inChannel({ topicPolicy: FOLLOWED }, { muted: true }))).toBe("followed_topic");
  });
});
