import { Fragment } from "react";
import { useTranslation } from "react-i18next";

/** Who made a change: their e-mail, or the system's name in the user's language. */
export function useByName(): (by: string | null | undefined) => string {
  const { t } = useTranslation("common");
  return (by) => (!by || by === "system" ? t("activity.system") : by);
}

/**
 * An author as text that wraps only between an e-mail's parts (after "@" and each "."), never
 * mid-word: "supplier.admin@" / "example.com" rather than "supplier.ad" / "min@examp".
 */
export function ByText({ by }: { by: string | null | undefined }) {
  const byName = useByName();
  const text = byName(by);
  if (!text.includes("@")) return <>{text}</>;
  const parts = text.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
