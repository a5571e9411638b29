/**
 * Values written into ClickHouse SQL. ClickHouse 18.16 (the version these machines install) has
 * no query parameters, so every value is checked for its type and quoted here, and nothing else
 * builds SQL from input: table and column names come from fixed lists.
 */

/** A string literal: backslashes and quotes escaped, control characters written as escapes. */
export function quoteString(value: string): string {
  if (typeof value !== "string") throw new TypeError("Not a string");
  let out = "'";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === "\\") out += "\\\\";
    else if (char === "'") out += "\\'";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${out}'`;
}

/** A non-negative integer literal (limits, hours, weekdays). */
export function quoteInteger(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a non-negative integer: ${value}`);
  return String(value);
}

/** An identifier from our own fixed lists: letters, digits and underscores only. */
export function identifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) throw new RangeError(`Not an identifier: ${name}`);
  return name;
}
