/**
 * Reordering a campaign's products with JavaScript (issue 10 section 2): by drag and drop of a
 * row's handle, or from the handle by keyboard (Alt+↑/↓, or ↑/↓), announced in a live region.
 * The list is shown a page at a time (ADR 48): the page's products are sent in their new order
 * with the list's index of the first (`slice`), and the server numbers the whole list 1, 2, 3…
 * around them, through the save-positions intent of the page (one save at a time: a move made while one is saving is sent once it is done, with
 * the campaign's new version). Without JavaScript the Up/Down buttons and the position fields do
 * the same through their own forms.
 */
import { useFetcher } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { positionsOf, reorder } from "~/domain/campaigns/product-order";
import { savePositionsIntent } from "~/forms/campaigns/products";

export interface Reorder {
  /** The ids in the order shown (the saved order, or the one being saved). */
  order: string[];
  move: (id: string, to: number) => void;
  /** The id whose handle takes the focus after a keyboard move. */
  focusId: string | null;
  saving: boolean;
}

export function useProductReorder({
  ids,
  from,
  version,
  action,
  back,
}: {
  /** The page's products, in the order shown. */
  ids: readonly string[];
  /** The list's index of the page's first product. */
  from: number;
  version: number;
  action: string;
  back: string;
}): Reorder {
  const fetcher = useFetcher();
  const [local, setLocal] = useState<string[] | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const dirty = useRef(false);
  const loadedKey = ids.join("\n");

  // The saved order came back (or changed elsewhere): it is shown, unless a move waits to be saved.
  useEffect(() => {
    if (!dirty.current && fetcher.state === "idle") setLocal(null);
  }, [loadedKey, fetcher.state]);

  const order = local ?? [...ids];

  // One save at a time, with the version the page has now.
  useEffect(() => {
    if (!dirty.current || fetcher.state !== "idle" || !local) return;
    dirty.current = false;
    const body = new FormData();
    body.set("intent", savePositionsIntent);
    body.set("version", String(version));
    positionsOf(local).forEach(({ id, pos }, index) => {
      body.set(`positions[${index}].id`, id);
      body.set(`positions[${index}].pos`, String(from + pos));
    });
    body.set("slice", String(from));
    body.set("back", back);
    fetcher.submit(body, { method: "post", action, encType: "application/x-www-form-urlencoded", preventScrollReset: true });
  }, [local, fetcher, version, action, back, from]);

  const move = useCallback(
    (id: string, to: number) => {
      const current = local ?? [...ids];
      const next = reorder(current, id, to);
      if (next === current) return;
      dirty.current = true;
      setFocusId(id);
      setLocal([...next]);
    },
    [local, ids],
  );

  return { order, move, focusId, saving: fetcher.state !== "idle" || dirty.current };
}
