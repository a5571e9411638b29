import { useTranslation } from "react-i18next";

/** Who made a change: their e-mail, or the system's name in the user's language. */
export function useByName(): (by: string | null | undefined) => string {
  const { t } = useTranslation("common");
  return (by) => (!by || by === "system" ? t("activity.system") : by);
}
