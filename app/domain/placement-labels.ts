/**
 * One label per placement and per slot on every screen (targeting, bidding, budget, banners,
 * statistics, retailer settings, History and Activity): the keys of one set, common:placements.*
 * and common:slots.*. A slot the retailer named itself (a banner size such as 670x980) has no key:
 * its name is its label, hence the default value.
 */
export function placementLabelKey(placement: string): string {
  return `common:placements.${placement}`;
}

export function slotLabelKey(slot: string): string {
  return `common:slots.${slot}`;
}

/** The options of t() for a placement's or slot's label: an unknown code shows as it is. */
export function labelDefault(code: string): { defaultValue: string } {
  return { defaultValue: code };
}
