/** The small forms of the shell: menu toggle, theme, direction, language. */
import * as z from "zod/mini";
import { SUPPORTED_LOCALES } from "~/domain/locale";

import { setDirectionIntent, setLocaleIntent, setThemeIntent, toggleMenuIntent } from "~/forms/preferences-intents";

const redirectTo = z._default(z.string(), "/");

export const PreferencesSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal(toggleMenuIntent), redirectTo, collapsed: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal(setThemeIntent), redirectTo, theme: z.enum(["system", "light", "dark"]) }),
  z.object({ intent: z.literal(setDirectionIntent), redirectTo, rtl: z.enum(["true", "false"]) }),
  z.object({ intent: z.literal(setLocaleIntent), redirectTo, locale: z.enum(SUPPORTED_LOCALES) }),
]);
export type PreferencesForm = z.infer<typeof PreferencesSchema>;
