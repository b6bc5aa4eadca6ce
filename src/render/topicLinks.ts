/**
 * topic_links of a message (spec 2.3): links that linkifiers and bare URLs make in its topic.
 * Follows Zulip: every linkifier's matches are collected, then bare URLs; overlaps are resolved
 * in favour of the earlier linkifier (bare URLs last), and the survivors are listed in order.
 */
import { findLinkifierMatches, newLinkBudget, type CompiledLinkifier } from "./linkifiers";
import { createBareUrlDetector } from "./urls";

export interface TopicLink {
  text: string;
  url: string;
}

interface Candidate extends TopicLink {
  index: number;
}

const bareUrls = createBareUrlDetector({ emails: false });

function bareUrlCandidates(topic: string): Candidate[] {
  const candidates: Candidate[] = [];
  for (const match of bareUrls.match(topic) ?? []) {
    // Only web links; a URL without a scheme is given https, as Zulip does.
    let url: string;
    if (match.schema === "") url = `https://${match.raw}`;
    else if (/^https?:$/i.test(match.schema)) url = match.raw;
    else continue;
    candidates.push({ text: match.raw, url, index: match.index });
  }
  return candidates;
}

function overlaps(a: Candidate, b: Candidate): boolean {
  return a.index < b.index + b.text.length && b.index < a.index + a.text.length;
}

export function topicLinks(topic: string, linkifiers: readonly CompiledLinkifier[]): TopicLink[] {
  if (topic === "") return [];
  const byPrecedence: Candidate[] = [];
  const budget = newLinkBudget();
  for (const linkifier of linkifiers) {
    for (const match of findLinkifierMatches(topic, linkifier, budget)) {
      byPrecedence.push({ text: match.text, url: match.url, index: match.start });
    }
  }
  byPrecedence.push(...bareUrlCandidates(topic));

  const kept: Candidate[] = [];
  for (const candidate of byPrecedence) {
    if (kept.every((other) => !overlaps(other, candidate))) kept.push(candidate);
  }
  return kept.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
}
