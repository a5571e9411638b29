/** Helpers shared by the DocumentStore adapters: patches and cursors behave the same on both. */
import { isFieldOp, type Patch, type QuerySpec } from "~/storage/port";

/**
 * Applies a shallow patch to a document's data. `serverTime` is what a serverTime op becomes:
 * an ISO instant on SQLite, Firestore's own sentinel on Firestore.
 */
export function applyPatch<T extends object>(
  current: Record<string, unknown>,
  patch: Patch<T>,
  serverTime: unknown,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (key === "id" || key === "version") continue;
    if (value === undefined) continue;
    if (isFieldOp(value)) {
      if (value.$op === "delete") delete next[key];
      else if (value.$op === "serverTime") next[key] = serverTime;
      else {
        const before = typeof next[key] === "number" ? (next[key] as number) : 0;
        next[key] = before + value.by;
      }
    } else {
      next[key] = value;
    }
  }
  return next;
}

export function hasServerTime(patch: object): boolean {
  return Object.values(patch).some((v) => isFieldOp(v) && v.$op === "serverTime");
}

/** Strips id and version (kept beside the data) and undefined values. */
export function toStoredData(data: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === "id" || key === "version" || value === undefined) continue;
    out[key] = value;
  }
  return out;
}

export interface CursorValue {
  v: unknown;
  id: string;
}

export function encodeCursor(cursor: CursorValue): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): CursorValue {
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof value !== "object" || value === null || typeof value.id !== "string") throw new Error();
    return value as CursorValue;
  } catch {
    throw new RangeError("Invalid cursor");
  }
}

export function readPath(data: Record<string, unknown>, path: string): unknown {
  let value: unknown = data;
  for (const part of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

export const MAX_PAGE_SIZE = 500;

export function pageSize(limit: number | undefined): number {
  return Math.max(1, Math.min(limit ?? 50, MAX_PAGE_SIZE));
}

const RANGE_OPERATORS = new Set(["<", "<=", ">", ">="]);

/**
 * The order a query runs in, the same on both adapters. Firestore orders by a range filter's
 * field before the document id, so range filters may bear on one field only, which must be the
 * orderBy field when there is one; without orderBy that field becomes the order (ascending).
 * Without range filter or orderBy, documents come by id.
 */
export function effectiveOrder(spec: QuerySpec): QuerySpec["orderBy"] {
  const rangeFields = [...new Set((spec.where ?? []).filter(([, op]) => RANGE_OPERATORS.has(op)).map(([f]) => f))];
  if (rangeFields.length > 1) throw new RangeError(`Range filters on several fields: ${rangeFields.join(", ")}`);
  const [rangeField] = rangeFields;
  if (!rangeField) return spec.orderBy;
  if (!spec.orderBy) return { field: rangeField, direction: "asc" };
  if (spec.orderBy.field !== rangeField) {
    throw new RangeError(`A range filter on ${rangeField} needs orderBy ${rangeField}, not ${spec.orderBy.field}`);
  }
  return spec.orderBy;
}
