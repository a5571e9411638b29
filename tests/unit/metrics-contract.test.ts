import { describe, expect, it } from "vitest";
import { MAX_FILTER_VALUES, parseMetricsRequest, scopeRequest } from "~/domain/metrics/contract";
import { change, derive, microsToCents, sumMeasures, zeroMeasures } from "~/domain/metrics/metrics";

const m = (over: Partial<ReturnType<typeof zeroMeasures>>) => ({ ...zeroMeasures(), ...over });

describe("derived figures", () => {
  it("derives CTR on displays, or on views when the retailer says so, and nothing without impressions", () => {
    expect(derive(m({ displays: 200, views: 100, clicks: 3 })).ctr).toBeCloseTo(0.015);
    expect(derive(m({ displays: 200, views: 100, clicks: 3 }), "views").ctr).toBeCloseTo(0.03);
    expect(derive(m({ clicks: 3 })).ctr).toBeNull();
  });

  it("shows spend in cents rounded half up from micros, CPC per click, ROAS as sales per spend", () => {
    expect(microsToCents(14_999)).toBe(1);
    expect(microsToCents(15_000)).toBe(2);
    expect(microsToCents(4_999)).toBe(0);
    const d = derive(m({ clicks: 4, costMicros: 2_000_000, salesCents: 1_000 }));
    expect(d.cost).toBe(200);
    expect(d.cpc).toBe(50);
    expect(d.roas).toBe(5);
    expect(derive(m({ salesCents: 1_000 })).roas).toBeNull();
    expect(derive(m({})).cpc).toBeNull();
  });

  it("gives a change only when there is something to compare with", () => {
    expect(change(150, 100)).toBe(0.5);
    expect(change(50, 100)).toBe(-0.5);
    expect(change(50, 0)).toBeNull();
    expect(change(null, 10)).toBeNull();
  });

  it("sums measures exactly", () => {
    expect(sumMeasures([m({ displays: 1, costMicros: 3 }), m({ displays: 2, costMicros: 4, salesCents: 5 })])).toEqual(m({ displays: 3, costMicros: 7, salesCents: 5 }));
  });
});

describe("the /metrics contract", () => {
  const base = { dateFrom: "2026-11-01", dateTo: "2026-11-30" };

  it("accepts spec section 7's request and its variants", () => {
    const request = { ...base, histogram: "day", groups: { terms: ["placement", "device", "slot"] }, filters: { terms: { campaign: ["c1"], placement: ["search"] } } };
    expect(parseMetricsRequest(request)).toEqual({ ok: true, value: request });
    expect(parseMetricsRequest({ ...base, groups: { terms: ["product"], size: 50 } })).toMatchObject({ ok: true, value: { groups: { terms: ["product"], size: 50 } } });
    expect(parseMetricsRequest({ ...base, groups: { terms: ["team", "team"] } })).toMatchObject({ ok: true, value: { groups: { terms: ["team"] } } });
  });

  it.each([
    ["not an object", []],
    ["no days", {}],
    ["a day that is not one", { dateFrom: "2026-02-30", dateTo: "2026-03-01" }],
    ["from after to", { dateFrom: "2026-12-01", dateTo: "2026-11-01" }],
    ["too long", { dateFrom: "2020-01-01", dateTo: "2026-01-01" }],
    ["an unknown histogram", { ...base, histogram: "minute" }],
    ["an unknown group", { ...base, groups: { terms: ["email"] } }],
    ["too many groups", { ...base, groups: { terms: ["team", "wallet", "campaign", "placement", "device", "slot", "product"] } }],
    ["a bad size", { ...base, groups: { terms: ["team"], size: 0 } }],
    ["an unknown filter", { ...base, filters: { terms: { password: ["x"] } } }],
    ["a filter that lists no strings", { ...base, filters: { terms: { team: [1] } } }],
    ["a filter too long", { ...base, filters: { terms: { team: Array.from({ length: MAX_FILTER_VALUES + 1 }, (_, i) => `t${i}`) } } }],
  ])("refuses %s", (_label, body) => {
    expect(parseMetricsRequest(body).ok).toBe(false);
  });

  it("narrows a request to the caller's teams, never widening it", () => {
    const request = { ...base, filters: { terms: { team: ["a", "z"], placement: ["search"] } } };
    expect(scopeRequest(request, null)).toBe(request);
    expect(scopeRequest(request, ["a", "b"]).filters?.terms).toEqual({ team: ["a"], placement: ["search"] });
    expect(scopeRequest(base, ["a", "b"]).filters?.terms.team).toEqual(["a", "b"]);
    expect(scopeRequest({ ...base, filters: { terms: { team: ["z"] } } }, ["a"]).filters?.terms.team).toEqual([]);
    expect(scopeRequest(base, []).filters?.terms.team).toEqual([]);
  });
});
