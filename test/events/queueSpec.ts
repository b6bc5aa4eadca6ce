import { readCapabilities, type ClientCapability, type QueueSpec } from "../../src/events/spec";

/** What register would build for a client with these capabilities and no other parameters. */
export const queueSpec = (overrides: Partial<QueueSpec> = {}, capabilities: ClientCapability[] = []): QueueSpec => ({
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: false,
  clientGravatar: false,
  slimPresence: false,
  capabilities: readCapabilities(Object.fromEntries(capabilities.map((name) => [name, true]))),
  ...overrides,
});
