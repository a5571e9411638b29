/**
 * A stand-in for a retailer's own search service (the /search contract at SEARCH_API_URL:
 * `POST <url>/product`, `/keyword`, `/category`), for tests of the console's client. It reads
 * the request as the contract says, records what it was asked (kind, request, token), and answers
 * with the hits given, or fails as told.
 */
import { http, HttpResponse } from "msw";
import { isSearchKind, parseSearchRequest, type SearchKind, type SearchRequest, type SearchResponse } from "~/domain/search-contract";

export const SEARCH_API_URL = "http://search.retailer.test/search";

export interface SearchUpstream {
  calls: { kind: SearchKind; body: SearchRequest; wire: unknown; authorization: string | null }[];
  /** Hits to answer with, a failure status, a raw body sent as it is (e.g. nonsense), or a network failure. */
  answer: ((kind: SearchKind, body: SearchRequest) => SearchResponse) | { status: number } | { raw: unknown } | { networkError: true };
}

export function searchHandler(upstream: SearchUpstream) {
  return http.post(`${SEARCH_API_URL}/:kind`, async ({ request, params }) => {
    const kind = params.kind;
    if (!isSearchKind(kind)) return HttpResponse.json({ error: "Search product, keyword or category" }, { status: 404 });
    const wire: unknown = await request.json();
    const parsed = parseSearchRequest(kind, wire);
    if (!parsed.ok) return HttpResponse.json({ error: parsed.reason }, { status: 400 });
    upstream.calls.push({ kind, body: parsed.value, wire, authorization: request.headers.get("authorization") });
    const answer = upstream.answer;
    if ("status" in answer) return new HttpResponse("upstream failure", { status: answer.status });
    if ("raw" in answer) return HttpResponse.json(answer.raw as Record<string, unknown>);
    if ("networkError" in answer) return HttpResponse.error();
    return HttpResponse.json(answer(kind, parsed.value) as unknown as Record<string, unknown>);
  });
}
