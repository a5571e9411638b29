/**
 * The notifications half of the storage contract (issue 11 §3), run inside runStorageContract on
 * every adapter: a user's notifications newest first in cursor pages, only their own, marked read
 * one by one or all at once (one atomic write), the unread count kept exact, and a notification
 * created under an id (a job run again) stored once.
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import type { NewNotification, Storage } from "~/storage/port";
import { servedByIndexes } from "./campaigns.contract";

const T0 = new Date("2026-11-20T08:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const note = (userId: string, name: string): NewNotification => ({ userId, type: "campaignStarted", values: { campaign: name }, link: `/campaigns/${name}` });

export function runNotificationsContract(storageOf: () => Storage): void {
  const repo = () => storageOf().notifications;

  it("lists a user's own notifications newest first in cursor pages, unread, with their values and link", async () => {
    for (let i = 1; i <= 5; i++) await repo().create(note("u-ann", `c-${i}`), at(i));
    await repo().create(note("u-bob", "c-bob"), at(10));
    const first = await repo().list("u-ann", { limit: 2 });
    expect(first.items.map((n) => n.values.campaign)).toEqual(["c-5", "c-4"]);
    expect(first.items[0]).toMatchObject({ userId: "u-ann", type: "campaignStarted", link: "/campaigns/c-5", read: false, created: at(5).toISOString() });
    const second = await repo().list("u-ann", { limit: 2, after: first.next });
    const third = await repo().list("u-ann", { limit: 2, after: second.next });
    expect([...second.items, ...third.items].map((n) => n.values.campaign)).toEqual(["c-3", "c-2", "c-1"]);
    expect(third.next).toBeNull();
    expect(await repo().countUnread("u-ann")).toBe(5);
    expect(await repo().countUnread("u-bob")).toBe(1);
    expect(await repo().countUnread("u-nobody")).toBe(0);
    expect(await repo().list("u-nobody", {})).toEqual({ items: [], next: null, latestSeq: 0 });
    const indexes = JSON.parse(fs.readFileSync(new URL("../../firestore.indexes.json", import.meta.url), "utf8")).indexes;
    expect(servedByIndexes("notification", { where: [["userId", "==", "u"]], orderBy: { field: "seq", direction: "desc" } }, indexes)).toBe(true);
  });

  it("marks one read for its owner only: another user's id is refused and changes nothing", async () => {
    const mine = (await repo().create(note("u-ann", "c-1"), T0))!;
    await repo().create(note("u-ann", "c-2"), at(1));
    expect(await repo().markRead("u-bob", mine.id)).toBeNull();
    expect(await repo().getOwn("u-bob", mine.id)).toBeNull();
    expect(await repo().markRead("u-ann", "n-missing")).toBeNull();
    expect(await repo().countUnread("u-ann")).toBe(2);
    expect(await repo().markRead("u-ann", mine.id)).toMatchObject({ id: mine.id, read: true });
    expect(await repo().getOwn("u-ann", mine.id)).toMatchObject({ read: true });
    // Marking it again counts nothing twice.
    await repo().markRead("u-ann", mine.id);
    expect(await repo().countUnread("u-ann")).toBe(1);
    expect((await repo().list("u-ann", {})).items.map((n) => n.read)).toEqual([false, true]);
  });

  it("marks all read in one write, and what arrives after is unread", async () => {
    for (let i = 1; i <= 3; i++) await repo().create(note("u-ann", `c-${i}`), at(i));
    await repo().create(note("u-bob", "c-bob"), at(4));
    expect(await repo().markAllRead("u-ann")).toBe(3);
    expect(await repo().countUnread("u-ann")).toBe(0);
    expect((await repo().list("u-ann", {})).items.every((n) => n.read)).toBe(true);
    expect(await repo().countUnread("u-bob")).toBe(1);
    expect(await repo().markAllRead("u-ann")).toBe(0);
    await repo().create(note("u-ann", "c-4"), at(5));
    expect((await repo().list("u-ann", {})).items.map((n) => [n.values.campaign, n.read])).toEqual([["c-4", false], ["c-3", true], ["c-2", true], ["c-1", true]]);
    expect(await repo().countUnread("u-ann")).toBe(1);
  });

  it("marks all read up to the newest the reader was shown: one that arrived after the page stays unread", async () => {
    for (let i = 1; i <= 3; i++) await repo().create(note("u-ann", `c-${i}`), at(i));
    const shown = await repo().list("u-ann", { limit: 2 });
    expect(shown.latestSeq).toBe(3);
    // Arrives while the page is open, and one of the page's is marked read meanwhile.
    await repo().create(note("u-ann", "c-new"), at(4));
    await repo().markRead("u-ann", shown.items[1]!.id);
    expect(await repo().markAllRead("u-ann", shown.latestSeq)).toBe(2);
    expect((await repo().list("u-ann", {})).items.map((n) => [n.values.campaign, n.read])).toEqual([["c-new", false], ["c-3", true], ["c-2", true], ["c-1", true]]);
    expect(await repo().countUnread("u-ann")).toBe(1);
    // A forged "through" past the newest marks what there is; an old one marks nothing more.
    expect(await repo().markAllRead("u-ann", 1)).toBe(0);
    expect(await repo().countUnread("u-ann")).toBe(1);
    expect(await repo().markAllRead("u-ann", 1_000_000)).toBe(1);
    expect(await repo().countUnread("u-ann")).toBe(0);
    const indexes = JSON.parse(fs.readFileSync(new URL("../../firestore.indexes.json", import.meta.url), "utf8")).indexes;
    expect(servedByIndexes("notification", { where: [["userId", "==", "u"], ["seq", ">", 1]], orderBy: { field: "seq", direction: "desc" } }, indexes)).toBe(true);
  });

  it("creates a notification under an id once (a job run again), counting it once, even concurrently", async () => {
    const results = await Promise.all([1, 2, 3].map(() => repo().create(note("u-ann", "c-1"), T0, "alert-1:u-ann")));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await repo().countUnread("u-ann")).toBe(1);
    expect((await repo().list("u-ann", {})).items).toHaveLength(1);
    // Many at once on one inbox: every one counted.
    await Promise.all(Array.from({ length: 8 }, (_, i) => repo().create(note("u-ann", `c-x${i}`), at(i + 1))));
    expect(await repo().countUnread("u-ann")).toBe(9);
    expect(new Set((await repo().list("u-ann", {})).items.map((n) => n.seq)).size).toBe(9);
  });
}
