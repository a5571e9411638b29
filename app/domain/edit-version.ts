/**
 * Optimistic checks of the settings forms (wallet, team details and status). A record's version
 * also goes up when money is posted (balance totals on the wallet and its team) and when campaign
 * counters change; those writes never touch an editable field, so they must not make an edit stale.
 * An edit is stale only when another edit of the editable fields was saved after the form was loaded:
 * the repositories' `update` (the edits) store the version they produce in settingsSavedAtVersion.
 */
export interface EditVersioned {
  version: number;
  /** The version the last edit of the editable fields produced; absent before the first edit. */
  settingsSavedAtVersion?: number;
}

/** True when the form, loaded at `formVersion`, missed an edit saved since (or names a version the record never had). */
export function isStaleEdit(formVersion: number, current: EditVersioned): boolean {
  return formVersion < (current.settingsSavedAtVersion ?? 0) || formVersion > current.version;
}
