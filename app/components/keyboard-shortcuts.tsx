import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

interface MenuEntry {
  key: string;
  to: string;
  shortcut: string;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName);
}

/**
 * Keyboard shortcuts: "?" opens this help, "g" then a letter goes to a screen, "[" toggles the
 * menu. Without JS the help is a section reached from the "?" link in the navbar.
 */
export function KeyboardShortcuts({ menu }: { menu: MenuEntry[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const [prefix, setPrefix] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (event.key === "?") {
        event.preventDefault();
        dialog.current?.showModal();
        return;
      }
      if (prefix) {
        setPrefix(false);
        const item = menu.find((m) => m.shortcut === event.key);
        const extra: Record<string, string> = { p: "/profile" };
        const to = item?.to ?? extra[event.key];
        if (to) {
          event.preventDefault();
          navigate(to);
        }
        return;
      }
      if (event.key === "g") {
        setPrefix(true);
        clearTimeout(timer);
        timer = setTimeout(() => setPrefix(false), 1500);
      } else if (event.key === "[") {
        document.querySelector<HTMLButtonElement>('[data-shortcut="menu"]')?.click();
      }
    }
    function onOpen(event: MouseEvent) {
      const link = (event.target as HTMLElement).closest("[data-shortcuts-open]");
      if (link) {
        event.preventDefault();
        dialog.current?.showModal();
      }
    }
    window.addEventListener("keydown", onKey);
    document.addEventListener("click", onOpen);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onOpen);
      clearTimeout(timer);
    };
  }, [menu, navigate, prefix]);

  useDisclosureKeys();
  useMenuEscape();

  return (
    <dialog id="shortcuts" ref={dialog} className="shortcuts" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title">{t("shortcuts.title")}</h2>
      <table>
        <tbody>
          <tr>
            <td><kbd>?</kbd></td>
            <td>{t("shortcuts.help")}</td>
          </tr>
          <tr>
            <td><kbd>[</kbd></td>
            <td>{t("shortcuts.toggleMenu")}</td>
          </tr>
          {menu.map((m) => (
            <tr key={m.key}>
              <td><kbd>g</kbd> <kbd>{m.shortcut}</kbd></td>
              <td>{t("shortcuts.goTo", { screen: t(`menu.${m.key}`) })}</td>
            </tr>
          ))}
          <tr>
            <td><kbd>g</kbd> <kbd>p</kbd></td>
            <td>{t("shortcuts.goTo", { screen: t("userMenu.profile") })}</td>
          </tr>
          <tr>
            <td><kbd>Tab</kbd></td>
            <td>{t("shortcuts.tab")}</td>
          </tr>
        </tbody>
      </table>
      <form method="dialog">
        <button className="button">{t("actions.close")}</button>
      </form>
    </dialog>
  );
}

/** The disclosures that float over the page as menus: they close once focus leaves them. */
const POPOVER_DISCLOSURES = ".user-menu, .views-menu, .new-campaign-picker";

/**
 * The <details> disclosures (user menu, custom views, new campaign, confirmations) as a keyboard
 * user expects of a menu or a confirmation: Escape closes the innermost open one holding focus and
 * puts focus back on its summary; a floating menu closes when Tab moves focus out of it, so it
 * never covers the control focus went to.
 */
function useDisclosureKeys() {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      const active = document.activeElement;
      const details = active?.closest<HTMLDetailsElement>("details[open]");
      if (!details || details.closest("dialog[open]")) return;
      event.preventDefault();
      details.open = false;
      details.querySelector<HTMLElement>(":scope > summary")?.focus();
    }
    function onFocusOut(event: FocusEvent) {
      const target = event.target as HTMLElement | null;
      const popover = target?.closest?.<HTMLDetailsElement>(`:is(${POPOVER_DISCLOSURES})[open]`);
      const next = event.relatedTarget as Node | null;
      if (popover && next && !popover.contains(next)) popover.open = false;
    }
    window.addEventListener("keydown", onKey);
    document.addEventListener("focusout", onFocusOut);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("focusout", onFocusOut);
    };
  }, []);
}

/** The layout where the expanded menu sits above the content instead of beside it (app.css). */
const NARROW_LAYOUT = "(max-width: 767.98px)";

/**
 * On a narrow screen the expanded menu pushes the page down like an open disclosure: Escape, with
 * focus on the menu button or in the menu, collapses it (as the button does) and puts focus back
 * on the button. On a wide screen the menu is a lasting choice beside the content: Escape leaves it.
 */
function useMenuEscape() {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== "Escape" || event.defaultPrevented || !window.matchMedia(NARROW_LAYOUT).matches) return;
      const button = document.querySelector<HTMLButtonElement>('[data-shortcut="menu"]');
      if (!button || button.getAttribute("aria-expanded") !== "true" || document.querySelector("dialog[open]")) return;
      const active = document.activeElement;
      const menu = document.getElementById(button.getAttribute("aria-controls") ?? "");
      if (active !== button && !menu?.contains(active)) return;
      event.preventDefault();
      button.focus();
      button.click();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
