import type { LegacyClientPresence, ModernPresence } from "../../shapes/presence";

/**
 * A user came online, went idle, or changed whether they share presence. Emitted with both
 * formats; events/filters.ts gives clients with simplified_presence_events only `presences`
 * (the modern format keyed by user ID), and the others only the legacy fields.
 */
export interface PresenceEvent {
  type: "presence";
  user_id: number;
  /** The API e-mail as this copy's recipients see it (the event goes out once per form). */
  email: string;
  server_timestamp: number;
  presence: { website: LegacyClientPresence };
  presences: Record<string, ModernPresence>;
}
