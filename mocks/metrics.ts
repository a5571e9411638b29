/**
 * A stand-in for a retailer's own statistics service (the /metrics contract at METRICS_API_URL),
 * for tests of the console's client. It reads the request and answers in the contract's wire
 * names (campaign_type, cost, sales), with the figures given; it records what it was asked (as the
 * console reads it) and with which token, or fails as told.
 */
import { http, HttpResponse } from "msw";
import { parseMetricsRequest, responseToWire, type MetricsRequest, type MetricsResponse } from "~/domain/metrics/contract";

export const METRICS_API_URL = "http://metrics.retailer.test/metrics";

export interface MetricsUpstream {
  calls: { body: MetricsRequest; wire: unknown; authorization: string | null }[];
  /** Figures to answer with, a failure status, or a raw body sent as it is (e.g. nonsense). */
  answer: ((body: MetricsRequest) => MetricsResponse) | { status: number } | { raw: unknown };
}

export function metricsHandler(upstream: MetricsUpstream) {
  return http.post(METRICS_API_URL, async ({ request }) => {
    const wire: unknown = await request.json();
    const parsed = parseMetricsRequest(wire);
    if (!parsed.ok) return HttpResponse.json({ error: parsed.reason }, { status: 400 });
    const body = parsed.value;
    upstream.calls.push({ body, wire, authorization: request.headers.get("authorization") });
    if ("status" in upstream.answer) return new HttpResponse("upstream failure", { status: upstream.answer.status });
    if ("raw" in upstream.answer) return HttpResponse.json(upstream.answer.raw as Record<string, unknown>);
    return HttpResponse.json(responseToWire(upstream.answer(body)));
  });
}
