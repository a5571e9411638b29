import { isStaleEdit } from "~/domain/edit-version";

describe("isStaleEdit: only another edit makes a settings form stale", () => {
  it("accepts a form loaded before postings raised the version, when nobody edited since", () => {
    expect(isStaleEdit(19, { version: 20 })).toBe(false);
    expect(isStaleEdit(19, { version: 25, settingsSavedAtVersion: 19 })).toBe(false);
    expect(isStaleEdit(20, { version: 20, settingsSavedAtVersion: 20 })).toBe(false);
  });
  it("refuses a form loaded before another edit was saved, and a version the record never had", () => {
    expect(isStaleEdit(19, { version: 21, settingsSavedAtVersion: 20 })).toBe(true);
    expect(isStaleEdit(22, { version: 21 })).toBe(true);
  });
});
