/** ADR 42's save loop, shared by a wallet's settings, a team's details and a team's status. */
import { describe, expect, it } from "vitest";
import { ok } from "~/domain/result";
import { SAVE_ATTEMPTS, saveUnlessEdited } from "~/services/save-unless-edited.server";
import { ConflictError } from "~/storage/port";

type Doc = { version: number; settingsSavedAtVersion?: number };

/** A record read again as `reads` in turn; its first `conflicts` saves meet a newer version. */
function store(reads: (Doc | null)[], conflicts: number) {
  const saved: number[] = [];
  let left = conflicts;
  let next = 0;
  return {
    saved,
    reread: async () => reads[next++] ?? null,
    save: async (current: Doc) => {
      if (left-- > 0) throw new ConflictError("wallets", "w1");
      saved.push(current.version);
      return ok(`saved at ${current.version}`);
    },
  };
}

describe("saveUnlessEdited: a posting between the read and the write is no conflict, another edit is", () => {
  it("saves at once when nothing landed", async () => {
    const s = store([], 0);
    expect(await saveUnlessEdited({ formVersion: 4, read: { version: 4 }, reread: s.reread, save: s.save })).toEqual(ok("saved at 4"));
  });

  it("reads again and saves against the new version when postings landed meanwhile", async () => {
    const s = store([{ version: 6, settingsSavedAtVersion: 4 }, { version: 7, settingsSavedAtVersion: 4 }], 2);
    expect(await saveUnlessEdited({ formVersion: 4, read: { version: 5, settingsSavedAtVersion: 4 }, reread: s.reread, save: s.save })).toEqual(ok("saved at 7"));
    expect(s.saved).toEqual([7]);
  });

  it("refuses with the conflict message when another edit was saved meanwhile, without writing", async () => {
    const s = store([{ version: 6, settingsSavedAtVersion: 6 }], 1);
    expect(await saveUnlessEdited({ formVersion: 4, read: { version: 5 }, reread: s.reread, save: s.save })).toMatchObject({ ok: false, kind: "conflict", reason: "errors.conflict" });
    expect(s.saved).toEqual([]);
    // A form already stale when read is refused before any write.
    const stale = store([], 0);
    expect(await saveUnlessEdited({ formVersion: 3, read: { version: 5, settingsSavedAtVersion: 4 }, reread: stale.reread, save: stale.save })).toMatchObject({ ok: false, kind: "conflict" });
    expect(stale.saved).toEqual([]);
  });

  it("refuses when the record is gone, and after SAVE_ATTEMPTS writes that all met a newer version", async () => {
    const gone = store([null], 1);
    expect(await saveUnlessEdited({ formVersion: 4, read: { version: 4 }, reread: gone.reread, save: gone.save })).toMatchObject({ ok: false, kind: "conflict" });
    const busy = store([{ version: 5 }, { version: 6 }, { version: 7 }, { version: 8 }], SAVE_ATTEMPTS);
    expect(await saveUnlessEdited({ formVersion: 4, read: { version: 4 }, reread: busy.reread, save: busy.save })).toMatchObject({ ok: false, kind: "conflict" });
    expect(busy.saved).toEqual([]);
  });

  it("passes on the save's own failures and other errors as they are", async () => {
    const refused = { ok: false as const, kind: "invalid" as const, reason: "wallets:form.currencyLocked", field: "currency" };
    expect(await saveUnlessEdited({ formVersion: 4, read: { version: 4 }, reread: async () => null, save: async () => refused })).toBe(refused);
    await expect(saveUnlessEdited({ formVersion: 4, read: { version: 4 }, reread: async () => null, save: async () => { throw new Error("disk full"); } })).rejects.toThrow("disk full");
  });
});
