/**
 * A stand-in for a retailer's own statistics service (the /metrics contract at METRICS_API_URL),
 * for tests of the console's client. It answers with the figures given, records what it was
 * asked and with which token, or fails as told.
 */
import { http, HttpResponse } from "msw";
import type { MetricsRequest, MetricsResponse } from "~/domain/metrics/contract";

export const METRICS_API_URL = "http://metrics.retailer.test/metrics";

export interface MetricsUpstream {
  calls: { body: MetricsRequest; authorization: string | null }[];
  answer: ((body: MetricsRequest) => MetricsResponse) | { status: number };
}

export function metricsHandler(upstream: MetricsUpstream) {
  return http.post(METRICS_API_URL, async ({ request }) => {
    const body = (await request.json()) as MetricsRequest;
    upstream.calls.push({ body, authorization: request.headers.get("authorization") });
    if ("status" in upstream.answer) return new HttpResponse("upstream failure", { status: upstream.answer.status });
    return HttpResponse.json(upstream.answer(body));
  });
}
