/**
 * A translated message with values, carried as one string through conform's error lists:
 * "ns:key::{"0":"€0.15"}". `withValues` builds it on the server, `splitMessage` reads it back.
 */
const SEPARATOR = "::";

export type MessageValues = Record<string, string | number>;

export function withValues(key: string, values: MessageValues): string {
  return `${key}${SEPARATOR}${JSON.stringify(values)}`;
}

export function splitMessage(message: string): { key: string; values?: MessageValues } {
  const at = message.indexOf(SEPARATOR);
  if (at < 0) return { key: message };
  try {
    return { key: message.slice(0, at), values: JSON.parse(message.slice(at + SEPARATOR.length)) };
  } catch {
    return { key: message.slice(0, at) };
  }
}
