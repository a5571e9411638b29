/**
 * Reordering a campaign's products (issue 10 section 2; spec: "Products sorted by position then
 * availability"): moving one product to another place of the list shown. The list is then saved
 * as positions 1, 2, 3… (setOfferPositions), so what is shown is what is stored. Pure.
 */

/** The ids with `id` moved to index `to` (clamped to the list); the same array when nothing moves. */
export function reorder(ids: readonly string[], id: string, to: number): readonly string[] {
  const from = ids.indexOf(id);
  if (from < 0) return ids;
  const target = Math.max(0, Math.min(ids.length - 1, Math.trunc(to)));
  if (target === from) return ids;
  const next = ids.filter((x) => x !== id);
  next.splice(target, 0, id);
  return next;
}

/** Positions 1, 2, 3… of the ids in the order given. */
export function positionsOf(ids: readonly string[]): { id: string; pos: number }[] {
  return ids.map((id, index) => ({ id, pos: index + 1 }));
}

/**
 * Where a key pressed on a product's handle moves it: Alt+↑/↓ (or ↑/↓) one place, Home/End to
 * the first or last place; null for another key.
 */
export function keyboardTarget(key: string, index: number, length: number): number | null {
  switch (key) {
    case "ArrowUp":
      return index > 0 ? index - 1 : null;
    case "ArrowDown":
      return index < length - 1 ? index + 1 : null;
    case "Home":
      return index > 0 ? 0 : null;
    case "End":
      return index < length - 1 ? length - 1 : null;
    default:
      return null;
  }
}
