import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/http/auth.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

const SECTIONS = ["teams", "wallets", "liveStatus", "bidding", "pacing", "metrics", "reports", "keyboard", "roles"] as const;

export default function FaqRoute() {
  const { t } = useTranslation();
  return (
    <>
      <h1>{t("faq.title")}</h1>
      <p>{t("faq.intro")}</p>
      {SECTIONS.map((key) => (
        <details key={key} className="faq-item">
          <summary>{t(`faq.${key}.q`)}</summary>
          <p>{t(`faq.${key}.a`)}</p>
        </details>
      ))}
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
