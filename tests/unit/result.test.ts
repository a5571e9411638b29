import { describe, expect, it } from "vitest";
import { fail, failureFieldErrors, failureFormErrors, failureMessage, ok } from "~/domain/result";
import { splitMessage } from "~/domain/message";
import { statusOf } from "~/http/reply.server";

describe("use-case results", () => {
  it("carries a field's reason to that field only, with its values readable again", () => {
    const failure = fail("invalid", "campaigns:bidding.minBid", { field: "bid", values: { 0: "€0.15" } });
    expect(failureFormErrors(failure)).toEqual([]);
    const [message] = failureFieldErrors(failure).bid;
    expect(splitMessage(message)).toEqual({ key: "campaigns:bidding.minBid", values: { 0: "€0.15" } });
  });

  it("puts a reason without a field on the whole form, beside other field errors", () => {
    const failure = fail("conflict", "errors.conflict", { fieldErrors: { name: ["teams:validation.alreadyExists"] } });
    expect(failureFormErrors(failure)).toEqual(["errors.conflict"]);
    expect(failureFieldErrors(failure)).toEqual({ name: ["teams:validation.alreadyExists"] });
    expect(failureMessage(failure)).toBe("errors.conflict");
  });

  it("keeps warnings only when there are some", () => {
    expect(ok(3)).toEqual({ ok: true, value: 3 });
    expect(ok(3, ["campaigns:budget.warning"])).toEqual({ ok: true, value: 3, warnings: ["campaigns:budget.warning"] });
  });

  it("maps each kind to one HTTP status", () => {
    expect(
      ["invalid", "unauthenticated", "forbidden", "not-found", "conflict", "too-many", "too-large", "unavailable"].map((kind) => statusOf({ kind } as never)),
    ).toEqual([400, 401, 403, 404, 409, 429, 413, 503]);
  });
});
