/**
 * Where focus goes when a reply removed the row it was in (ADR 52, addendum 53): to the same
 * action of the row now in its place (the next one), else of the nearest following row that has
 * it, else of the nearest preceding one (the last row was removed), else, the list being empty or
 * gone, to the heading of the section that held it. Generic over every list of the console: a row
 * is a `<tr>` of a `<tbody>` or an `<li>` of a `<ul>`/`<ol>`; an action is found again by what it
 * does (its element, name and value, and the `intent` of its form), so "Remove" of the next row,
 * not its first link. An action inside a row's inline confirmation (`<details>`) is that
 * confirmation's `<summary>`: the next row's confirmation is closed. A control outside any list
 * that went (the profile's "Remove photo") leaves the focus on the heading of its section.
 */

/** A row's place, remembered when a control of it takes focus. */
export interface RowPlace {
  /** Null for a control outside any list: only its section's heading is tried. */
  list: Element | null;
  index: number;
  action: string;
  /** Among the row's controls doing the same thing, which one (two "Save" buttons, say). */
  nth: number;
  /** The section, fieldset or disclosure holding the list: its heading takes focus once the list is empty. */
  container: Element | null;
  /** The container's last heading before the list (the list's own title), preferred to the container's first. */
  heading: Element | null;
}

const ROW = "tr, li";
const LIST = "tbody, ul, ol";
const CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])";
const CONTAINER = "section, fieldset, details, dialog, [role=region], [role=dialog]";
const HEADING = "h1, h2, h3, h4, h5, h6";

function rowOf(el: Element): { row: Element; list: Element } | null {
  const row = el.closest(ROW);
  const list = row?.parentElement;
  if (!row || !list?.matches(LIST)) return null;
  return { row, list };
}

/** The control a row is known by: itself, or the summary of the row's confirmation it sits in. */
function anchorOf(el: Element, row: Element): Element {
  let details = el.closest("details");
  let anchor = el;
  while (details && row.contains(details) && details !== row) {
    const summary = details.querySelector(":scope > summary");
    if (summary && summary !== anchor) anchor = summary;
    details = details.parentElement?.closest("details") ?? null;
  }
  return anchor;
}

/** What a control does, the same for every row: element, name, type, value when named, the form's intent. */
function actionOf(el: Element): string {
  const form = el.tagName === "SUMMARY" ? el.parentElement?.querySelector("form") : (el as HTMLButtonElement).form;
  const intent = form?.elements.namedItem("intent");
  const named = el.getAttribute("name");
  return [el.tagName, named ?? "", el.getAttribute("type") ?? "", named ? (el.getAttribute("value") ?? "") : "", intent instanceof HTMLInputElement ? intent.value : ""].join("|");
}

/** A row's controls as anchors: those of a closed or open confirmation count as its summary. */
function anchorsOf(row: Element): Element[] {
  return Array.from(row.querySelectorAll(CONTROLS)).filter((c) => anchorOf(c, row) === c);
}

/** The container of `el` and its last heading before `el` (the title of the part it is in). */
function sectionOf(el: Element): { container: Element | null; heading: Element | null } {
  const container = el.parentElement?.closest(CONTAINER) ?? null;
  const before = container ? Array.from(container.querySelectorAll(HEADING)).filter((h) => h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) : [];
  return { container, heading: before.at(-1) ?? null };
}

export function placeOf(target: Element): RowPlace | null {
  const found = rowOf(target);
  // Not in a list: the section it is in, whose heading takes the focus if the control goes (a photo removed).
  // A control of a confirmation (<details>) goes with it: the section around the confirmation.
  if (!found) return { list: null, index: -1, action: "", nth: 0, ...sectionOf(target.closest("details") ?? target) };
  const { row, list } = found;
  const anchor = anchorOf(target, row);
  const action = actionOf(anchor);
  const same = anchorsOf(row).filter((c) => actionOf(c) === action);
  return { list, index: Array.from(list.children).indexOf(row), action, nth: Math.max(0, same.indexOf(anchor)), ...sectionOf(list) };
}

function usable(el: Element | undefined): el is HTMLElement {
  return el instanceof HTMLElement && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0;
}

function actionIn(row: Element, place: RowPlace): HTMLElement | null {
  const same = anchorsOf(row).filter((c) => actionOf(c) === place.action);
  const pick = same[Math.min(place.nth, same.length - 1)];
  return usable(pick) ? pick : null;
}

/** The list's heading, or the first of the section that held it (made focusable for the script), or its summary. */
function headingOf({ container, heading: title }: RowPlace): HTMLElement | null {
  if (!container?.isConnected) return null;
  const heading = title?.isConnected && container.contains(title) ? (title as HTMLElement) : container.querySelector<HTMLElement>(HEADING);
  if (heading && heading.getClientRects().length > 0) {
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    return heading;
  }
  const summary = container.matches("details") ? container.querySelector<HTMLElement>(":scope > summary") : null;
  return usable(summary ?? undefined) ? summary : null;
}

/** The control to focus once the row of `place` may have gone, or null (then the content takes focus). */
export function targetFor(place: RowPlace): HTMLElement | null {
  if (place.list?.isConnected) {
    const rows = Array.from(place.list.children).filter((r) => r.matches(ROW));
    const order = [...rows.slice(place.index), ...rows.slice(0, place.index).reverse()];
    for (const row of order) {
      const found = actionIn(row, place);
      if (found) return found;
    }
  }
  return headingOf(place);
}
