/** Search keys that a document store can serve with equality and array-contains queries. */

/** Lower-cased, accent-folded, trimmed, inner spaces collapsed. */
export function foldText(text: string): string {
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
