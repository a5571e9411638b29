import { describe, expect, it } from "vitest";
import { checkPasswordStrength } from "~/domain/passwords";

describe("checkPasswordStrength: at least 10 characters with a letter and a digit or symbol", () => {
  it.each([
    ["", "password.tooShort"],
    ["abc1", "password.tooShort"],
    ["abcdefgh1", "password.tooShort"],
    ["abcdefghij", "password.tooWeak"],
    ["ABCDEFGHIJKL", "password.tooWeak"],
    ["éèàùçéèàùç", "password.tooWeak"],
    ["1234567890", "password.tooWeak"],
    ["!!!!!!!!!!", "password.tooWeak"],
    ["1234567890!@#", "password.tooWeak"],
    ["abcdefghi1", null],
    ["abcdefghi!", null],
    ["abcd efghi", null],
    ["Demo-password-1", null],
    ["éèàùçéèàù1", null],
    ["пароль-надёжный", null],
    ["a".repeat(127) + "1", null],
    ["a".repeat(128) + "1", "password.tooLong"],
  ])("%j -> %j", (password, expected) => {
    expect(checkPasswordStrength(password)).toBe(expected);
  });

  it("uses bounds of 10 and 128", () => {
    expect(checkPasswordStrength("x".repeat(9) + "1")).toBeNull();
    expect(checkPasswordStrength("x".repeat(8) + "1")).toBe("password.tooShort");
  });
});
