import { createHash, randomInt, timingSafeEqual } from "node:crypto";

/**
 * The one-time code that guards the setup page of a server without an organization: whoever
 * first reaches a fresh server on a public address could otherwise claim it. The server makes
 * one at start and prints it in its log, which only its operator reads; the page asks for it.
 * It lives in memory only: a restart makes a new one, setting up the organization ends it.
 */

// No 0/O, 1/I/L: it is read off a terminal and typed by hand.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const GROUPS = 3;
const GROUP_LENGTH = 4;

let current: Buffer | null = null;

/** 12 symbols of 31, 59 bits: guessing it over HTTP is hopeless, so a wrong one needs no lockout. */
export function issueSetupCode(): string {
  const groups = Array.from({ length: GROUPS }, () => Array.from({ length: GROUP_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(""));
  const code = groups.join("-");
  current = digest(normalize(code));
  return code;
}

/** What a person may type: any case, with or without the dashes and spaces. */
const normalize = (typed: string) => typed.toUpperCase().replace(/[\s-]/g, "");

// Compared as digests, so the comparison takes the same time whatever the length typed.
const digest = (text: string) => createHash("sha256").update(text).digest();

export function setupCodeMatches(typed: string): boolean {
  if (current === null) return false;
  return timingSafeEqual(digest(normalize(typed)), current);
}

/** Once the organization exists, no code sets anything up. */
export function retireSetupCode() {
  current = null;
}
