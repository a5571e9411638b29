/** Search keys that a document store can serve with equality and array-contains queries. */

/** Text foldText leaves as it is: lowercase ASCII letters and digits, words apart by one space. */
const FOLDED_ASCII = /^[a-z0-9]+(?: [a-z0-9]+)*$/;

/** Whether foldText leaves the text as it is, being lowercase ASCII letters and digits, words apart by one space. */
export function isFoldedAscii(text: string): boolean {
  return FOLDED_ASCII.test(text);
}

/** Lower-cased, accent-folded, trimmed, inner spaces collapsed. */
export function foldText(text: string): string {
  // Most keywords are so already (an import folds 100,000 of them): nothing to fold.
  if (FOLDED_ASCII.test(text)) return text;
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export const MAX_TOKEN_LENGTH = 20;

/** Every prefix (1..20 characters) of every word of the texts, folded: "Acme Brand" → a, ac, acm… */
export function searchTokens(...texts: string[]): string[] {
  const tokens = new Set<string>();
  for (const text of texts) {
    for (const word of foldText(text).split(/[^\p{L}\p{N}]+/u)) {
      for (let i = 1; i <= Math.min(word.length, MAX_TOKEN_LENGTH); i++) tokens.add(word.slice(0, i));
    }
  }
  return [...tokens].sort();
}

/** The token a search box value is looked up by: its first word, folded and capped. */
export function searchKey(query: string): string | null {
  const word = foldText(query).split(/[^\p{L}\p{N}]+/u).find(Boolean);
  return word ? word.slice(0, MAX_TOKEN_LENGTH) : null;
}

/** Whether every word of the query starts a word of the text (the exact check after a token lookup). */
export function matchesSearch(text: string, query: string): boolean {
  const words = foldText(text).split(/[^\p{L}\p{N}]+/u);
  return foldText(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .every((q) => words.some((w) => w.startsWith(q)));
}

/** A full-text query keeps this many words at most, each this long at most. */
export const MAX_QUERY_WORDS = 8;
export const MAX_QUERY_WORD_LENGTH = 40;

/**
 * The words of a search box value for a full-text index: folded like the indexed text, split on
 * anything but letters and digits, without repeats, the first MAX_QUERY_WORDS, each capped.
 */
export function queryWords(query: string): string[] {
  const words: string[] = [];
  for (const word of foldText(query).split(/[^\p{L}\p{N}]+/u)) {
    const capped = word.slice(0, MAX_QUERY_WORD_LENGTH);
    if (capped && !words.includes(capped)) words.push(capped);
    if (words.length === MAX_QUERY_WORDS) break;
  }
  return words;
}

/**
 * The FTS5 query that finds texts where every word starts a word of the text, in any order
 * ("caf cre" finds "Café Crème"). The words hold letters and digits only, so quoting each one
 * leaves no FTS syntax to inject. Null without words.
 */
export function prefixMatchQuery(words: readonly string[]): string | null {
  return words.length ? words.map((word) => `"${word}"*`).join(" ") : null;
}

/** The FTS5 query that finds texts holding every one of the words, whole ("coffee" finds "Coffee Beans", not "Coffees"). */
export function allWordsQuery(words: readonly string[]): string | null {
  return words.length ? words.map((word) => `"${word}"`).join(" ") : null;
}

/**
 * How well folded texts match query words, for ranking a few candidates outside the full-text
 * index: each word counts the weight of the best text one of whose words it starts (double when
 * it is the whole word); null unless every word starts a word of some text.
 */
export function prefixScore(words: readonly string[], texts: readonly { text: string; weight: number }[]): number | null {
  const split = texts.map(({ text, weight }) => ({ tokens: text.split(/[^\p{L}\p{N}]+/u).filter(Boolean), weight }));
  let score = 0;
  for (const word of words) {
    let best = 0;
    for (const { tokens, weight } of split) {
      if (tokens.includes(word)) best = Math.max(best, 2 * weight);
      else if (tokens.some((token) => token.startsWith(word))) best = Math.max(best, weight);
    }
    if (!best) return null;
    score += best;
  }
  return score;
}
