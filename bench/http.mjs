// Helpers the benches share: wait for a server, sign in, load a URL with autocannon.
import autocannon from "autocannon";

export const CONNECTIONS = 10;
export const DURATION = Number(process.env.BENCH_SECONDS ?? 8);

export async function waitFor(url, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`Server did not answer at ${url}`);
}

export async function load(url, headers = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx > 0 && !url.endsWith("/error-404")) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors };
}

/** Serves each URL for a few seconds, not counted: a measured run then starts on compiled code. */
export async function warmUp(urls, headers = {}, seconds = 3) {
  for (const url of urls) await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
}

export async function signIn(base, email = "operator@example.com") {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: "Demo-password-1", to: "/" }),
  });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (res.status !== 302 || !cookies.length) throw new Error(`Sign-in failed: ${res.status}`);
  return cookies.join("; ");
}
