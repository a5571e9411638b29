import { randomUUID } from "node:crypto";
import { describe, inject } from "vitest";
import { openFirestoreDocumentStore } from "~/storage/firestore/document-store.server";
import { runCampaignsContract } from "./campaigns.contract";
import { runStorageContract } from "./storage.contract";
import { runTargetsContract } from "./targets.contract";

// The global setup starts the emulator and exports its address; provide() also carries it in
// case the worker's environment was fixed before the setup ran.
const host = inject("firestoreEmulatorHost");
if (host && !process.env.FIRESTORE_EMULATOR_HOST) process.env.FIRESTORE_EMULATOR_HOST = host;
const skip = !!process.env.SKIP_FIRESTORE || !process.env.FIRESTORE_EMULATOR_HOST;

if (skip) {
  describe.skip("storage contract: firestore (no Firestore emulator, see the notice above)", () => {
    runStorageContract("firestore", async () => {
      throw new Error("skipped");
    });
    runCampaignsContract("firestore", async () => {
      throw new Error("skipped");
    });
    runTargetsContract("firestore", async () => {
      throw new Error("skipped");
    });
  });
} else {
  // Every store of the contract (one app each) uses the same emulated project.
  runStorageContract(
    "firestore",
    async () => openFirestoreDocumentStore({ projectId: "ads-console-test", appName: `contract-${randomUUID()}` }),
  );
  runCampaignsContract(
    "firestore",
    async () => openFirestoreDocumentStore({ projectId: "ads-console-test", appName: `campaigns-${randomUUID()}` }),
  );
  runTargetsContract(
    "firestore",
    async () => openFirestoreDocumentStore({ projectId: "ads-console-test", appName: `targets-${randomUUID()}` }),
  );
}
