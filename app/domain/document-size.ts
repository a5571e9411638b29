/**
 * The size Firestore counts for a document (https://firebase.google.com/docs/firestore/storage-size),
 * against its limit of 1 MiB per document (1,048,576 bytes). Pure; used to keep a campaign's
 * products under that limit (ADR 48) on every storage, so that a campaign saved on SQLite could
 * also be saved on Firestore.
 *
 * - string: its UTF-8 bytes + 1; boolean and null: 1; number and date: 8;
 * - array: the sum of its values; map: the sum of each key (as a string) and its value;
 * - document: its name (each path segment as a string, + 16), + 32, + the map of its fields.
 * `undefined` values are dropped (as the adapters store them).
 */

/** Firestore's maximum document size. */
export const FIRESTORE_DOCUMENT_LIMIT = 1_048_576;

const encoder = new TextEncoder();

export function stringSize(value: string): number {
  // Pure ASCII (ids, links, most titles) is one byte a character: no encoding needed.
  // eslint-disable-next-line no-control-regex
  return (/^[\x00-\x7f]*$/.test(value) ? value.length : encoder.encode(value).length) + 1;
}

/** The size of one field value. */
export function valueSize(value: unknown): number {
  if (value === null) return 1;
  switch (typeof value) {
    case "string":
      return stringSize(value);
    case "boolean":
      return 1;
    case "number":
    case "bigint":
      return 8;
    case "object": {
      if (value instanceof Date) return 8;
      if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + (v === undefined ? 1 : valueSize(v)), 0);
      return mapSize(value as Record<string, unknown>);
    }
    default:
      return 0;
  }
}

/** The size of a map (a document's fields, or a map field). */
export function mapSize(map: Record<string, unknown>): number {
  let sum = 0;
  for (const [key, v] of Object.entries(map)) {
    if (v === undefined) continue;
    sum += stringSize(key) + valueSize(v);
  }
  return sum;
}

/** The size of the document `collection/id` holding `fields`. */
export function documentSize(collection: string, id: string, fields: Record<string, unknown>): number {
  return stringSize(collection) + stringSize(id) + 16 + 32 + mapSize(fields);
}
