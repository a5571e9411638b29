/**
 * The save of a settings form (a wallet's settings, a team's details or status) under ADR 42: a
 * record's version also goes up when money is posted or counters move, which must not make the
 * form stale; only another edit does (isStaleEdit).
 */
import { isStaleEdit, type EditVersioned } from "~/domain/edit-version";
import { conflict, type Result } from "~/domain/result";
import { ConflictError } from "~/storage/port";

/** Reads and writes tried before giving up with the conflict message. */
export const SAVE_ATTEMPTS = 3;

/**
 * Saves an edit made on a form loaded at `formVersion`: `save` decides on the record as last read
 * and writes it with `expectVersion: current.version`. When that write meets a newer version (a
 * posting or a counter landed between the read and the write: ConflictError), the record is read
 * again and `save` decides again. Refused with the conflict message when another edit was saved
 * since the form was loaded, when the record is gone, or after SAVE_ATTEMPTS writes. Any other
 * error, and any failure `save` returns, goes back to the caller as it is.
 */
export async function saveUnlessEdited<R extends EditVersioned, T>(edit: {
  formVersion: number;
  /** The record as the caller read it. */
  read: R;
  /** Reads the record again after a write met a newer version; null when it is gone. */
  reread: () => Promise<R | null>;
  save: (current: R) => Promise<Result<T>>;
}): Promise<Result<T>> {
  let current = edit.read;
  for (let attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
    if (isStaleEdit(edit.formVersion, current)) return conflict();
    try {
      return await edit.save(current);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      const reread = await edit.reread();
      if (!reread) return conflict();
      current = reread;
    }
  }
  return conflict();
}
