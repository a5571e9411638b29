// Keyword lists of 100,000 over HTTP (ADR 43), against a running server with the demo data
// (BASE, e.g. http://localhost:3987; sign-in supplier.admin@example.com, password Demo-password-1):
// a 100,000-keyword CSV imported into a demo campaign (replacing its keywords) while GET /login is sent every 50 ms, then
// five views of the Keywords section's pages and searches with a /login alongside, then a 7.6 MiB
// CSV with quoted cells (95,000 keywords, replace) and 5,000 typed keywords, each with /login
// meanwhile. Writes into the server's data: use a fresh data folder.
// `BASE=http://localhost:PORT node bench/keywords-http.mjs` (not part of `npm run bench`).
const BASE = process.env.BASE;
if (!BASE) throw new Error("BASE=http://localhost:PORT of a running server");
async function signIn(email) {
  const res = await fetch(`${BASE}/login`, { method: "POST", redirect: "manual", headers: { Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ email, password: "Demo-password-1", to: "/" }) });
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}
const timed = async (fn) => { const t = performance.now(); const r = await fn(); return { ms: performance.now() - t, r }; };
const cookie = await signIn("supplier.admin@example.com");
const list = await (await fetch(`${BASE}/campaigns`, { headers: { cookie } })).text();
const ids = [...new Set([...list.matchAll(/\/campaigns\/([0-9a-f-]{36})/g)].map((m) => m[1]))];
let id = null, version = null;
for (const c of ids) {
  const html = await (await fetch(`${BASE}/campaigns/${c}/keywords`, { headers: { cookie } })).text();
  const v = html.match(/name="version" value="(\d+)"/);
  if (v && html.includes('value="import-keywords"')) { id = c; version = v[1]; break; }
}
if (!id) throw new Error("no editable campaign");
const csv = ["keyword", ...Array.from({ length: 100_000 }, (_, i) => `kw ${i} ${["shoes", "coffee", "tea", "bio"][i % 4]}`)].join("\n");
const logins = [];
let running = true;
const poll = (async () => { while (running) { const { ms } = await timed(() => fetch(`${BASE}/login`).then((r) => r.text())); logins.push(ms); await new Promise((r) => setTimeout(r, 50)); } })();
const form = new FormData();
// Replacing the list: a demo campaign may hold a few keywords already, and 100,000 more would be
// refused (over MAX_KEYWORDS). The same work as an import into an empty list (every chunk and the
// whole view written).
form.set("intent", "import-keywords"); form.set("version", version); form.set("column", "keyword"); form.set("mode", "replace"); form.set("bid", "0.50"); form.set("applyMin", "yes");
form.set("file", new File([csv], "k.csv", { type: "text/csv" }));
const imp = await timed(() => fetch(`${BASE}/campaigns/${id}/keywords`, { method: "POST", headers: { cookie, Origin: BASE }, body: form, redirect: "manual" }).then(async (r) => ({ status: r.status, body: await r.text() })));
running = false; await poll;
const sorted = (a) => [...a].sort((x, y) => x - y);
const p = (a, q) => sorted(a)[Math.min(a.length - 1, Math.floor(q * a.length))];
if (imp.r.status !== 200) throw new Error(`the import was not stored (${imp.r.status}): nothing to measure`);
console.log(`import: ${imp.r.status} in ${imp.ms.toFixed(0)} ms; /login during it: ${logins.length} requests, p50 ${p(logins, 0.5).toFixed(0)} ms, max ${Math.max(...logins).toFixed(0)} ms`);
for (const q of ["", "?page=500", "?q=coffee", "?q=zzz"]) {
  const views = [];
  const during = [];
  for (let i = 0; i < 5; i++) {
    const [v, l] = await Promise.all([timed(() => fetch(`${BASE}/campaigns/${id}/keywords${q}`, { headers: { cookie } }).then((r) => r.text())), (async () => { await new Promise((r) => setTimeout(r, 5)); return timed(() => fetch(`${BASE}/login`).then((r) => r.text())); })()]);
    views.push(v.ms); during.push(l.ms);
  }
  console.log(`GET keywords${q || " (first page)"}: p50 ${p(views, 0.5).toFixed(0)} ms, max ${Math.max(...views).toFixed(0)} ms; /login sent meanwhile: max ${Math.max(...during).toFixed(0)} ms`);
}
async function during(label, fn) {
  const ls = []; let on = true;
  const poll = (async () => { while (on) { const { ms } = await timed(() => fetch(`${BASE}/login`).then((r) => r.text())); ls.push(ms); await new Promise((r) => setTimeout(r, 50)); } })();
  const res = await timed(fn); on = false; await poll;
  console.log(`${label}: ${res.r.status} in ${res.ms.toFixed(0)} ms; /login during it: ${ls.length} requests, p50 ${p(ls, 0.5).toFixed(0)} ms, max ${Math.max(...ls).toFixed(0)} ms`);
}
const versionOf = async () => (await (await fetch(`${BASE}/campaigns/${id}/keywords`, { headers: { cookie } })).text()).match(/name="version" value="(\d+)"/)[1];
const typed = Array.from({ length: 5000 }, (_, i) => `typed keyword ${i}`).join("\n");
// Replace first with 90,000 so that 5,000 typed fit under the limit.
const f2 = new FormData();
f2.set("intent", "import-keywords"); f2.set("version", await versionOf()); f2.set("column", "keyword"); f2.set("mode", "replace"); f2.set("bid", "0.50"); f2.set("applyMin", "yes");
f2.set("file", new File([["keyword,note", ...Array.from({ length: 95_000 }, (_, i) => `"kw, ""quoted"" ${i} ${"padding text ".repeat(3)}",${"x".repeat(20)}`)].join("\n")], "q.csv", { type: "text/csv" }));
console.log(`quoted CSV size ${(f2.get("file").size / 2 ** 20).toFixed(1)} MiB`);
await during("8 MB CSV with quoted cells (95,000 keywords, replace)", () => fetch(`${BASE}/campaigns/${id}/keywords`, { method: "POST", headers: { cookie, Origin: BASE }, body: f2, redirect: "manual" }).then(async (r) => ({ status: r.status, body: await r.text() })));
const v3 = await versionOf();
await during("5,000 typed keywords into 95,000", () => fetch(`${BASE}/campaigns/${id}/keywords`, { method: "POST", headers: { cookie, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ intent: "add-keywords", version: v3, keywords: typed, bid: "0.50", applyMin: "yes" }), redirect: "manual" }).then(async (r) => ({ status: r.status, body: await r.text() })));
