import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/http/auth.server";
import { getStorage } from "~/services/storage.server";
import { formatDateTime } from "~/utils/format";

const ENTITIES = ["user", "team", "config"] as const;

/** Activity: the audit trail of changes (operators). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Health");
  const params = new URL(request.url).searchParams;
  const entity = (ENTITIES as readonly string[]).includes(params.get("entity") ?? "") ? params.get("entity")! : undefined;
  const storage = getStorage();
  const [page, config] = await Promise.all([
    storage.audit.list({ entity, limit: 50, after: params.get("after") }).catch((error) => {
      if (error instanceof RangeError) return storage.audit.list({ entity, limit: 50 });
      throw error;
    }),
    storage.config.get(),
  ]);
  return {
    entity: entity ?? "",
    entries: page.items.map((e) => ({ id: e.id, at: e.at, by: e.by, action: e.action, entity: e.entity, entityId: e.entityId, changes: e.changes })),
    next: page.next,
    reloadLog: config.reloadLog.slice(0, 10),
    timezone: user.timezone,
  };
}

function show(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

export default function ActivityRoute() {
  const { t, i18n } = useTranslation();
  const { entity, entries, next, reloadLog, timezone } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const nextParams = new URLSearchParams(params);
  if (next) nextParams.set("after", next);
  return (
    <>
      <h1>{t("activity.title")}</h1>
      <form method="get" className="filters">
        <label htmlFor="entity">{t("activity.entity")}</label>
        <select id="entity" name="entity" defaultValue={entity}>
          <option value="">{t("activity.allEntities")}</option>
          {ENTITIES.map((e) => (
            <option key={e} value={e}>
              {t(`activity.entities.${e}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="button">{t("actions.filter")}</button>
      </form>
      {entries.length === 0 ? (
        <p className="empty-state">{t("activity.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{t("activity.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("activity.when")}</th>
                <th scope="col">{t("activity.by")}</th>
                <th scope="col">{t("activity.what")}</th>
                <th scope="col">{t("activity.changes")}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <td>{formatDateTime(e.at, i18n.language, timezone)}</td>
                  <td>{e.by}</td>
                  <td>
                    {t(`activity.actions.${e.action}`, { defaultValue: e.action })} · {t(`activity.entities.${e.entity}`, { defaultValue: e.entity })}{" "}
                    <code>{e.entityId}</code>
                  </td>
                  <td>
                    <ul className="changes">
                      {e.changes.map((c) => (
                        <li key={c.field}>
                          <code>{c.field}</code>: {show(c.before)} → {show(c.after)}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next ? (
        <p>
          <Link to={`?${nextParams.toString()}`}>{t("actions.nextPage")}</Link>
        </p>
      ) : null}
      <section className="panel" aria-labelledby="reload-title">
        <h2 id="reload-title">{t("activity.reloadLog")}</h2>
        {reloadLog.length === 0 ? (
          <p className="muted">{t("activity.reloadLogEmpty")}</p>
        ) : (
          <ul>
            {reloadLog.map((r) => (
              <li key={`${r.at}-${r.userId}`}>
                {formatDateTime(r.at, i18n.language, timezone)}: {r.from} → {r.to}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
