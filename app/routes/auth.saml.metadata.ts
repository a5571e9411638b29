/** The console's SAML service-provider metadata (entity id, assertion consumer URL), for the IdP's administrator. */
import { serviceProviderMetadataXml } from "~/services/sso/settings.server";

export async function loader() {
  return new Response(await serviceProviderMetadataXml(), {
    headers: { "Content-Type": "application/samlmetadata+xml; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
