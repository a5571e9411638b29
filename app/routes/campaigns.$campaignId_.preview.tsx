import { pageTitle } from "~/utils/page-title";
import { redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useParams, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LiveStatusBadge } from "~/components/campaigns/status-badge";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { campaignPrefixRedirect } from "~/domain/campaigns/urls";
import { requireUser } from "~/http/auth.server";
import { getRequestLocale } from "~/http/i18n.server";
import { orThrow } from "~/http/reply.server";
import { requireCampaign } from "~/services/campaigns/campaigns.server";
import { campaignPreview } from "~/services/campaigns/preview.server";
import previewStyles from "~/styles/campaign-preview.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: previewStyles }];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => (data ? pageTitle(matches, "preview", { name: data.campaign.name }) : pageTitle(matches, "preview"));

/**
 * The campaign as shoppers would see it (read only), for anyone who may read the campaign: 404
 * outside their scope, 403 with the reason when the retailer has preview off or the campaign is
 * not running or scheduled (spec section 4).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, "Campaign");
  const prefixed = campaignPrefixRedirect(params.campaignId ?? "", "preview");
  if (prefixed) throw redirect(prefixed);
  const ctx = orThrow(await requireCampaign(user, params.campaignId));
  return orThrow(await campaignPreview(user, ctx, await getRequestLocale(request)));
}

export default function CampaignPreviewRoute() {
  const { t } = useTranslation("campaignPreview");
  const { campaign, products, banners, creative } = useLoaderData<typeof loader>();
  const base = `/campaigns/${encodeURIComponent(campaign.id)}`;
  return (
    <div className="campaign-preview">
      <p className="breadcrumb">
        <Link to={base}>{t("backToEditor")}</Link>
      </p>
      <header className="campaign-header">
        <h1>{t("title", { name: campaign.name })}</h1>
        <p className="campaign-meta">
          <LiveStatusBadge status={campaign.liveStatus} />
          <span>{campaign.team}</span>
        </p>
      </header>
      <p className="muted">{t("intro")}</p>

      {creative ? (
        <section className="panel" aria-labelledby="preview-creative">
          <h2 id="preview-creative">{t("creative")}</h2>
          <div className="preview-creative">
            {creative.brandImage || creative.brand ? (
              <p className="preview-brand">
                {creative.brandImage ? <img src={creative.brandImage} alt={t("brandAlt", { brand: creative.brand ?? campaign.team })} /> : null}
                {creative.brand ? <span>{creative.brand}</span> : null}
              </p>
            ) : null}
            {creative.headline ? <p className="preview-headline">{creative.headline}</p> : null}
            {creative.textLink ? <p>{creative.href ? <a href={creative.href}>{creative.textLink}</a> : <span className="preview-text-link">{creative.textLink}</span>}</p> : null}
          </div>
        </section>
      ) : null}

      {campaign.campaignType === "sponsored-products" ? (
        <section className="panel" aria-labelledby="preview-products">
          <h2 id="preview-products">{t("products")}</h2>
          {products.length === 0 ? (
            <p className="empty-state">
              {t("empty.products")} <Link to={`${base}/products`}>{t("empty.productsLink")}</Link>
            </p>
          ) : (
            <ul className="preview-tiles">
              {products.map((p) => (
                <li key={p.id} className="preview-tile">
                  <span className="preview-sponsored">{t("sponsored")}</span>
                  {p.image ? (
                    <img src={p.image} alt="" width={160} height={160} loading="lazy" className="preview-tile-image" />
                  ) : (
                    <span className="preview-tile-image preview-tile-none">{t("noImage")}</span>
                  )}
                  <h3 className="preview-tile-title">{p.link ? <a href={p.link}>{p.title}</a> : p.title}</h3>
                  {p.price ? <p className="preview-price">{p.price}</p> : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        <section className="panel" aria-labelledby="preview-banners">
          <h2 id="preview-banners">{t("banners")}</h2>
          {banners.length === 0 ? (
            <p className="empty-state">
              {t("empty.banners")} <Link to={`${base}/creative`}>{t("empty.bannersLink")}</Link>
            </p>
          ) : (
            <ul className="preview-banners">
              {banners.map((b) => (
                <li key={b.slot}>
                  <figure className="preview-banner">
                    <a href={b.link}>
                      <img src={b.imageUrl} alt={t("bannerAlt", { team: campaign.team, width: b.width, height: b.height })} width={b.width} height={b.height} />
                    </a>
                    <figcaption>
                      <span className="preview-sponsored">{t("sponsored")}</span> {t("bannerSize", { width: b.width, height: b.height })} ·{" "}
                      <span className="preview-link">{t("bannerLink", { link: b.link })}</span>
                    </figcaption>
                  </figure>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}

/** A refused preview says why (preview off, or not running or scheduled); anything else as everywhere. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation("campaignPreview");
  const params = useParams();
  const reason = isRouteErrorResponse(error) && error.status === 403 && typeof error.data?.error === "string" ? (error.data.error as string) : null;
  if (!reason?.startsWith("campaignPreview:")) return <GeneralErrorBoundary />;
  return (
    <section className="error-page" role="alert">
      <h1>{t("refused.title")}</h1>
      <p>{t(reason)}</p>
      <p>
        <Link to={`/campaigns/${encodeURIComponent(params.campaignId ?? "")}`}>{t("backToEditor")}</Link>
      </p>
    </section>
  );
}
