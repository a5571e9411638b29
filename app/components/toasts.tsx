import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/icons";
import { placeOf, targetFor, type RowPlace } from "~/components/row-focus";

export interface ToastView {
  type: "success" | "error";
  title: string;
  description?: string;
  values?: Record<string, string | number>;
}

export const SUCCESS_TOAST_MS = 3000;

/**
 * One React key per flashed toast (the root loader hands over a new object for each flash), so a
 * toast that follows another within 3 s gets a new element and its own full 3 s: a reused element
 * kept the first toast's running CSS animation and hid the second one early.
 */
const toastKeys = new WeakMap<ToastView, number>();
let lastToastKey = 0;
function keyOf(toast: ToastView): number {
  let key = toastKeys.get(toast);
  if (key === undefined) {
    key = ++lastToastKey;
    toastKeys.set(toast, key);
  }
  return key;
}

/**
 * How to find a focused control again once its form has been drawn anew: by id, or by its form's
 * id and place, checked against what it is (a save may add fields before it: a banner's "Remove
 * image" once it has one), else the form's control that is the same (element, type, name, text).
 */
type FocusedControl = { id: string } | { formId: string; index: number; kind: string };

function kindOf(el: Element): string {
  return [el.tagName, el.getAttribute("type") ?? "", el.getAttribute("name") ?? "", el.textContent?.trim() ?? ""].join("|");
}

function describe(target: EventTarget | null): FocusedControl | null {
  if (!(target instanceof HTMLElement) || target.id === "main") return null;
  if (target.id) return { id: target.id };
  const form = (target as HTMLButtonElement).form;
  if (form?.id) {
    const index = Array.from(form.elements).indexOf(target as HTMLButtonElement);
    if (index >= 0) return { formId: form.id, index, kind: kindOf(target) };
  }
  return null;
}

function inForm(control: { formId: string; index: number; kind: string }): Element | undefined {
  const elements = (document.getElementById(control.formId) as HTMLFormElement | null)?.elements;
  if (!elements) return undefined;
  const atPlace = elements[control.index];
  if (atPlace && kindOf(atPlace) === control.kind) return atPlace;
  return Array.from(elements).find((e) => kindOf(e) === control.kind);
}

function findSame(control: FocusedControl): HTMLElement | null {
  const found = "id" in control ? document.getElementById(control.id) : inForm(control);
  if (!(found instanceof HTMLElement) || (found as HTMLButtonElement).disabled || found.getClientRects().length === 0) return null;
  return found;
}

/**
 * Flash toasts. Success: bottom-left, 3 s, paused while hovered or focused (CSS animation, so
 * it also works without JS). Errors: red with a warning icon, kept until dismissed; the
 * dismiss button closes a native dialog, without JS too; with JS Escape dismisses it as well.
 *
 * Focus is never left on nothing: when a form's reply (same screen) removed the focused control
 * (a product or keyword removed, a row gone, a form drawn anew after its save), focus goes to the
 * error toast's dismiss button if there is one, else to the same control drawn anew (same id, or
 * same place in the same form), else, when it was in a list's row, to the same action of the row
 * now in its place, or of the previous one, or to the list's heading once empty (row-focus.ts),
 * else to the main content, so the next Tab goes on from there
 * rather than from the top of the page. Dismissing the error toast puts focus back where it was, or on the content.
 */
export function Toasts({ toast }: { toast: ToastView | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => setVisible(true), [toast]);

  const location = useLocation();
  const shownPath = useRef<string | null>(null);
  const dismissRef = useRef<HTMLButtonElement>(null);
  const beforeToast = useRef<Element | null>(null);
  useEffect(() => {
    // A new screen (another path, or the first render) starts from the top like a page load does.
    const samePage = shownPath.current === location.pathname;
    shownPath.current = location.pathname;
    if (!samePage) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    if (dismissRef.current) return dismissRef.current.focus();
    // A form redrawn after its save (keyed by the record's version) has the same control again.
    const same = lastFocused.current ? findSame(lastFocused.current) : null;
    // A removed row: the same action of the row now in its place, or of the one before, or the list's heading.
    const inRow = same ?? (lastRow.current ? targetFor(lastRow.current) : null);
    if (inRow) inRow.focus();
    else document.getElementById("main")?.focus({ preventScroll: true });
  }, [location.key, toast]);

  const lastFocused = useRef<FocusedControl | null>(null);
  const lastRow = useRef<RowPlace | null>(null);
  useEffect(() => {
    const remember = (event: FocusEvent) => {
      lastFocused.current = describe(event.target);
      lastRow.current = event.target instanceof Element ? placeOf(event.target) : null;
    };
    document.addEventListener("focusin", remember);
    return () => document.removeEventListener("focusin", remember);
  }, []);

  function dismiss() {
    const inside = dismissRef.current?.closest("dialog")?.contains(document.activeElement);
    setVisible(false);
    if (!inside) return;
    const back = beforeToast.current;
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
    else document.getElementById("main")?.focus({ preventScroll: true });
  }
  const errorShown = !!toast && toast.type === "error" && visible;
  useEffect(() => {
    if (!errorShown) return;
    function onKey(event: KeyboardEvent) {
      if (event.key !== "Escape" || event.defaultPrevented || document.querySelector("dialog:modal")) return;
      event.preventDefault();
      dismiss();
    }
    function onFocusIn(event: FocusEvent) {
      const dialog = dismissRef.current?.closest("dialog");
      if (dialog && event.relatedTarget instanceof Element && !dialog.contains(event.relatedTarget) && dialog.contains(event.target as Node)) {
        beforeToast.current = event.relatedTarget;
      }
    }
    window.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocusIn);
    };
  });
  useEffect(() => {
    if (!toast || toast.type !== "success" || !ref.current) return;
    const el = ref.current;
    const done = () => setVisible(false);
    el.addEventListener("animationend", done);
    return () => el.removeEventListener("animationend", done);
  }, [toast]);

  return (
    <div className="toast-region">
      <div role="status" aria-live="polite" className="toast-live">
        {toast && toast.type === "success" && visible ? (
          <div key={keyOf(toast)} ref={ref} className="toast toast-success" tabIndex={0} style={{ animationDuration: `${SUCCESS_TOAST_MS}ms` }}>
            <Icon name="check" />
            <div>
              <strong>{t(toast.title, toast.values)}</strong>
              {toast.description ? <p>{t(toast.description, toast.values)}</p> : null}
            </div>
          </div>
        ) : null}
      </div>
      <div role="alert" className="toast-live">
        {toast && toast.type === "error" && visible ? (
          <dialog key={keyOf(toast)} open className="toast toast-error">
            <Icon name="warning" />
            <div>
              <strong>{t(toast.title, toast.values)}</strong>
              {toast.description ? <p>{t(toast.description, toast.values)}</p> : null}
            </div>
            <form method="dialog">
              <button
                ref={dismissRef}
                className="icon-button"
                onClick={(e) => {
                  e.preventDefault();
                  dismiss();
                }}
              >
                <Icon name="close" size={16} />
                <span className="visually-hidden">{t("actions.dismiss")}</span>
              </button>
            </form>
          </dialog>
        ) : null}
      </div>
    </div>
  );
}
