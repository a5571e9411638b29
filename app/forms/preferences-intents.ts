/**
 * The intents of the shell's small forms. Kept apart from their zod schema so that the shell,
 * on every page, does not pull zod into the browser.
 */
export const toggleMenuIntent = "toggle-menu";
export const setThemeIntent = "set-theme";
export const setDirectionIntent = "set-direction";
export const setLocaleIntent = "set-locale";
