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
 * dismiss button closes a native dialog, without JS too.
 */
export function Toasts({ toast }: { toast: ToastView | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(true);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => setVisible(true), [toast]);
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
                className="icon-button"
                onClick={(e) => {
                  e.preventDefault();
                  setVisible(false);
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
