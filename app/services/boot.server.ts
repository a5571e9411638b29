/** What the server does once before it listens: open (and migrate) storage, seed demo data. */
import { getEnv } from "~/services/env.server";
import { seedDemoCampaigns } from "~/services/demo-campaigns.server";
import { DEMO_PASSWORD, DEMO_USERS, seedDemoData } from "~/services/seed.server";
import { initStorage } from "~/services/storage.server";

export async function boot(): Promise<void> {
  const env = getEnv();
  const storage = await initStorage();
  await storage.config.get();
  if (!env.SEED_DEMO_DATA) return;
  let created = await seedDemoData(storage);
  if (env.SEED_DEMO_CAMPAIGNS) created += await seedDemoCampaigns(storage, new Date());
  const lines = [
    created ? `Seeded ${created} demo records.` : "Demo data already present.",
    `Demo sign-ins (password ${DEMO_PASSWORD}, demo data only):`,
    ...DEMO_USERS.map((u) => `  ${u.email.padEnd(30)} ${u.claims.type} ${u.claims.role}`),
  ];
  console.log(lines.join("\n"));
}
