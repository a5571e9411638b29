import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/icons";

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
 * Flash toasts. Success: bottom-left, 3 s, paused while hovered or focused (CSS animation, so
 * it also works without JS). Errors: red with a warning icon, kept until dismissed; the
 * dismiss button closes a native dialog, without JS too; with JS Escape dismisses it as well.
 *
 * Focus is never left on nothing: when a navigation or a form's reply removed the focused control
 * (a product or keyword removed, a row gone), focus goes to the error toast's dismiss button if
 * there is one, else to the main content, so the next Tab goes on from there rather than from the
 * top of the page. Dismissing the error toast puts focus back where it was, or on the content.
 */
export function Toasts({ toast }: { toast: ToastView | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => setVisible(true), [toast]);

  const location = useLocation();
  const firstRender = useRef(true);
  const dismissRef = useRef<HTMLButtonElement>(null);
  const beforeToast = useRef<Element | null>(null);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    if (dismissRef.current) dismissRef.current.focus();
    else document.getElementById("main")?.focus({ preventScroll: true });
  }, [location.key, toast]);

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
