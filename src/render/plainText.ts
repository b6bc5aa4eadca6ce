/**
 * The text of rendered message HTML, for places that show no HTML: a notification's body, the
 * text part of an e-mail. Blocks (paragraphs, list items, quotes, code) end in `blockBreak`;
 * inline markup (bold, links, mentions) joins its neighbours as displayed.
 */
export function plainTextOf(html: string, blockBreak: " " | "\n"): string {
  const text = html
    .replace(/<(?:br|\/p|\/li|\/div|\/h\d|\/blockquote|\/pre|\/tr|\/td|\/th)\b[^>]*>/gi, blockBreak)
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, "&");
  return (blockBreak === " " ? text.replace(/\s+/g, " ") : text.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n")).trim();
}
