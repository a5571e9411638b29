/**
 * What a change of a campaign's products did, product by product (added, removed, switched on or
 * off, moved), for the History screen and its CSV. The entries themselves (labels, money,
 * instants, names, and the lines told from this summary) are presented by
 * app/domain/audit-view.ts, which Activity shares.
 */
type OfferLike = { on?: unknown; pos?: unknown };

function asOffers(value: unknown): Record<string, OfferLike> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, OfferLike>) : {};
}

export interface OffersChangeSummary {
  added: string[];
  removed: string[];
  switchedOn: string[];
  switchedOff: string[];
  /** Products whose position changed: id, before, after (null = none). */
  moved: { id: string; before: number | null; after: number | null }[];
}

/** What a change of the campaign's products did, product by product. */
export function summariseOffersChange(before: unknown, after: unknown): OffersChangeSummary {
  const a = asOffers(before);
  const b = asOffers(after);
  const summary: OffersChangeSummary = { added: [], removed: [], switchedOn: [], switchedOff: [], moved: [] };
  const pos = (o: OfferLike | undefined) => (typeof o?.pos === "number" ? o.pos : null);
  for (const id of Object.keys(b)) {
    if (!(id in a)) {
      summary.added.push(id);
      continue;
    }
    if (!!a[id]!.on !== !!b[id]!.on) (b[id]!.on ? summary.switchedOn : summary.switchedOff).push(id);
    if (pos(a[id]) !== pos(b[id])) summary.moved.push({ id, before: pos(a[id]), after: pos(b[id]) });
  }
  for (const id of Object.keys(a)) if (!(id in b)) summary.removed.push(id);
  return summary;
}
