import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";

function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError && /fetch|network|load failed/i.test(error.message);
}

/** Every route's error boundary: 403, 404 and network errors by name, anything else 'Error occurred'. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  let title = t("errors.errorOccurred");
  let message = t("errors.tryAgain");
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = t("errors.notFoundTitle");
      message = t("errors.notFound");
    } else if (error.status === 403) {
      title = t("errors.insufficientPermissions");
      message = t("errors.insufficientPermissionsHelp");
    }
  } else if (isNetworkError(error)) {
    title = t("errors.networkTitle");
    message = t("errors.network");
  }
  return (
    <section className="error-page" role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <a href="/">{t("errors.backHome")}</a>
      </p>
    </section>
  );
}
