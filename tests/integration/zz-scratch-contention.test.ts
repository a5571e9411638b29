import { it } from "vitest";
import { FirestoreDocumentStore } from "~/storage/firestore/document-store.server";

it("contention", async () => {
  const store = new FirestoreDocumentStore({ projectId: "p-contention" });
  for (let run = 0; run < 4; run++) {
    await store.clear();
    await store.create("wallet", "w", { balance: 0 });
    const t0 = Date.now();
    const attempts: number[] = [];
    const durations: number[] = [];
    await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      let n = 0;
      const start = Date.now();
      await store.transaction(async (tx) => {
        n++;
        const w = (await tx.get<{ balance: number }>("wallet", "w"))!;
        tx.update("wallet", "w", { balance: w.balance + 1 });
      });
      attempts[i] = n; durations[i] = Date.now() - start;
    }));
    attempts.sort((a, b) => a - b);
    console.log("run", run, "ms", Date.now() - t0, "max attempts", attempts.at(-1), "hist", JSON.stringify(attempts), "maxdur", Math.max(...durations), await store.get("wallet", "w"));
  }
  await store.close();
}, 600_000);
