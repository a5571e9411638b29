import { publicJwks } from "~/services/identity-token.server";

/** The public keys identity tokens are signed with, for any service that verifies them (RFC 7517). */
export async function loader() {
  return new Response(JSON.stringify(await publicJwks()), {
    headers: { "Content-Type": "application/jwk-set+json", "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" },
  });
}
