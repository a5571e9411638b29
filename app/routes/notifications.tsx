import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { renderNotification } from "~/domain/notifications";
import { markAllReadIntent, markReadIntent, NotificationsSchema } from "~/forms/notifications";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow, reply, validOrThrow } from "~/http/reply.server";
import { markAllNotificationsRead, markNotificationRead, notificationCentre } from "~/services/notifications.server";
import { pageTitle } from "~/utils/page-title";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "notifications");

/** The signed-in user's own notifications, newest first, dates in their time zone. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Notification");
  const after = new URL(request.url).searchParams.get("after");
  const locale = await getRequestLocale(request);
  const centre = orThrow(await notificationCentre(user, { locale, timeZone: user.timezone || "Europe/Paris" }, after));
  return { ...centre, after };
}

/** Mark one read (only the user's own), or all. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, "Notification");
  const form = validOrThrow(parseWithZod(await request.formData(), { schema: NotificationsSchema }));
  if (form.intent === markReadIntent) {
    const back = form.after ? `/notifications?${new URLSearchParams({ after: form.after })}` : "/notifications";
    return reply(await markNotificationRead(user, form.id), {
      form: markReadIntent,
      onSuccess: () => ({ to: back, toast: { type: "success", title: "toast.changesSaved", description: "notifications.markedRead" } }),
    });
  }
  return reply(await markAllNotificationsRead(user, form.through), {
    form: markAllReadIntent,
    onSuccess: () => ({ to: "/notifications", toast: { type: "success", title: "toast.changesSaved", description: "notifications.allMarkedRead" } }),
  });
}

export default function NotificationsRoute() {
  const { t } = useTranslation();
  const { items, next, unread, after, latestSeq } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <>
      <h1>{t("notifications.title")}</h1>
      <div className="notifications-toolbar">
        <p className="muted" role="status">
          {t("notifications.unreadCount", { count: unread })}
        </p>
        {items.length > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value={markAllReadIntent} />
            <input type="hidden" name="through" value={latestSeq} />
            <button type="submit" className="button" disabled={busy}>
              {t("notifications.markAllRead")}
            </button>
          </Form>
        ) : null}
      </div>
      {items.length === 0 ? (
        <p className="empty-state">{t("notifications.empty")}</p>
      ) : (
        <ol className="notification-list">
          {items.map((n) => {
            const { subject, message } = renderNotification(t, n);
            return (
              <li key={n.id} className="notification" data-read={n.read ? "true" : "false"}>
                <article aria-labelledby={`notification-${n.id}`}>
                  <h2 id={`notification-${n.id}`} className="notification-subject">
                    {n.read ? null : <span className="badge notification-unread">{t("notifications.unread")}</span>} {subject}
                  </h2>
                  <p className="notification-message">{message}</p>
                  <p className="notification-meta muted">
                    <time dateTime={n.created}>{n.createdText}</time>
                    {n.read ? (
                      <>
                        {" · "}
                        <span className="notification-state">{t("notifications.read")}</span>
                      </>
                    ) : null}
                    {n.link ? (
                      <>
                        {" · "}
                        <Link to={n.link}>
                          {t("notifications.open")}
                          <span className="visually-hidden">: {subject}</span>
                        </Link>
                      </>
                    ) : null}
                  </p>
                  {n.read ? null : (
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="intent" value={markReadIntent} />
                      <input type="hidden" name="id" value={n.id} />
                      {after ? <input type="hidden" name="after" value={after} /> : null}
                      <button type="submit" className="button button-secondary" disabled={busy}>
                        {t("notifications.markReadShort")}
                        <span className="visually-hidden">: {subject}</span>
                      </button>
                    </Form>
                  )}
                </article>
              </li>
            );
          })}
        </ol>
      )}
      {after || next ? (
        <nav className="pagination" aria-label={t("notifications.pages")}>
          {after ? <Link to="/notifications">{t("notifications.firstPage")}</Link> : null}
          {next ? <Link to={`?${new URLSearchParams({ after: next })}`}>{t("notifications.nextPage")}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
