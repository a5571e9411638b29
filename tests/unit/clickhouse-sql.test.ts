import { describe, expect, it } from "vitest";
import { identifier, quoteInteger, quoteString } from "~/metrics/clickhouse-sql";

describe("values written into ClickHouse SQL", () => {
  it("quotes strings so that nothing ends the literal", () => {
    expect(quoteString("plain")).toBe("'plain'");
    expect(quoteString("x' OR '1'='1")).toBe("'x\\' OR \\'1\\'=\\'1'");
    expect(quoteString("back\\slash\\'")).toBe("'back\\\\slash\\\\\\''");
    expect(quoteString("line\nbreak\0nul\x7f")).toBe("'line\\x0abreak\\x00nul\\x7f'");
    expect(quoteString("Épicerie – 東京")).toBe("'Épicerie – 東京'");
  });

  it("takes only non-negative safe integers and plain identifiers", () => {
    expect(quoteInteger(25)).toBe("25");
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60]) expect(() => quoteInteger(bad)).toThrow(RangeError);
    expect(identifier("m_team_day")).toBe("m_team_day");
    for (const bad of ["a-b", "1abc", "x; DROP", "", "a".repeat(65)]) expect(() => identifier(bad)).toThrow(RangeError);
  });
});
