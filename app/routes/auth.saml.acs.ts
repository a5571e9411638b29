/**
 * The assertion consumer service (SAML HTTP-POST binding): the identity provider's page posts the
 * signed response here. server.mjs lets this one path through the origin check: the response is
 * authenticated by its signature (app/services/sso/sign-in.server.ts), not by where it comes from.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { consumeSamlResponse } from "~/http/saml.server";

export async function loader() {
  return redirect("/login");
}

export async function action({ request }: ActionFunctionArgs) {
  return consumeSamlResponse(request, await request.formData());
}
