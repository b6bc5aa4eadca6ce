import pkg from "../package.json";

/** Reported to clients as svc_version / zulip_version. */
export const SERVER_VERSION = `parley-${pkg.version}`;
/** The level of the newest spec behaviour we implement (spec section 9). */
export const FEATURE_LEVEL = 378;
/** We are not a fork of any upstream tree, so there is no merge base to report. */
export const MERGE_BASE = "";

/** The version fields every client-facing handshake carries, with the aliases Zulip clients look for. */
export function versionFields() {
  return {
    svc_version: SERVER_VERSION,
    svc_feature_level: FEATURE_LEVEL,
    svc_merge_base: MERGE_BASE,
    zulip_version: SERVER_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_merge_base: MERGE_BASE,
  };
}
