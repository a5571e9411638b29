/**
 * French elision of the preposition "de" before a name: "Campagnes d’Acme Brand", "Campagnes de
 * Bricoprix". "de" becomes "d’" before a vowel (accents and y included) or a mute h; before an
 * aspirated h it stays ("de Hachette"). Whether an h is mute cannot be read from the spelling:
 * an h followed by a vowel is taken as mute, except for the common aspirated-h starts below.
 *
 * The translations use it as an interpolation format: "Campagnes {{team, de}}" (see app/i18n.ts).
 */
const VOWEL = /^[aeiouyàâäéèêëîïôöùûüÿæœ]/i;
const H_THEN_VOWEL = /^h[aeiouyàâäéèêëîïôöùûüÿæœ]/i;
const ASPIRATED_H = ["hach", "haie", "haine", "hall", "hamac", "hamburg", "hamster", "hanche", "hangar", "hardi", "hareng", "haricot", "harley", "hasard", "haut", "héros", "hibou", "hockey", "homard", "honda", "honte", "hors", "houx", "huit", "hurl", "hyundai"];

/** Whether "de" elides before this word or name. */
export function elidesBefore(word: string): boolean {
  const w = word.trimStart();
  if (VOWEL.test(w)) return true;
  if (!H_THEN_VOWEL.test(w)) return false;
  const lower = w.toLocaleLowerCase("fr");
  return !ASPIRATED_H.some((start) => lower.startsWith(start));
}

/** "de" and the name, elided where French elides: "d’Acme Brand", "de Bricoprix". */
export function withDe(name: string): string {
  return elidesBefore(name) ? `d’${name.trimStart()}` : `de ${name}`;
}

/** The interpolation formats of the translations, by name: `{{value, de}}`. */
export const TEXT_FORMATS: Record<string, (value: string) => string> = {
  de: withDe,
};
