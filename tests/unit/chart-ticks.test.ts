import { describe, expect, it } from "vitest";
import { niceTicks } from "~/domain/metrics/ticks";

describe("round axis ticks", () => {
  it("draws €0.34 of spend with ticks of 10 cents, not 0.09, 0.17, 0.26, 0.34", () => {
    expect(niceTicks(0.34, 5, 0.01)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
  });
  it("rounds counts to 1, 2, 2.5 or 5 times a power of ten", () => {
    expect(niceTicks(1234, 5, 1)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(9, 5, 1)).toEqual([0, 5, 10]);
    expect(niceTicks(3, 5, 1)).toEqual([0, 1, 2, 3]);
  });
  it("never steps below a cent for money", () => {
    expect(niceTicks(0.02, 5, 0.01)).toEqual([0, 0.01, 0.02]);
  });
  it("gives an axis to a chart of zeros", () => {
    expect(niceTicks(0, 5, 0.01)).toEqual([0, 1]);
  });
});
