// Lighthouse mobile performance (its default config: simulated slow 4G, 4x CPU slowdown) of signed-in
// pages, in Debian's Chromium, several runs per page; the median run is reported. A run whose
// final URL is not the page asked for (e.g. a redirect to /login) fails the bench.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Runs Lighthouse `runs` times on `url`; returns every run and the median run (by score). */
export async function lighthousePage(url, { cookie, runs = 5, chromePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium" } = {}) {
  const results = [];
  let failures = 0;
  for (let i = 0; i < runs; i++) {
    // A fresh browser per run: no cache, no state carried from one run to the next.
    const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
    try {
      const flags = {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
        extraHeaders: cookie ? { Cookie: cookie } : undefined,
      };
      const runner = await lighthouse(url, flags);
      const lhr = runner?.lhr;
      if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
      if (lhr.runtimeError) {
        // Lighthouse's own trace failures (e.g. NO_NAVSTART on a busy machine): that run again, 3 times at most.
        if (++failures > 3) throw new Error(`Lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        console.warn(`Lighthouse ${url}: ${lhr.runtimeError.code}, run again`);
        i--;
        continue;
      }
      const wanted = new URL(url);
      const final = new URL(lhr.finalDisplayedUrl);
      if (final.pathname !== wanted.pathname) throw new Error(`Lighthouse ${url} ended on ${lhr.finalDisplayedUrl}, not the page asked for`);
      const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
      const requests = lhr.audits["network-requests"]?.details?.items ?? [];
      results.push({
        score: Math.round((lhr.categories.performance.score ?? 0) * 100),
        fcp: audit("first-contentful-paint"),
        lcp: audit("largest-contentful-paint"),
        tbt: audit("total-blocking-time"),
        cls: audit("cumulative-layout-shift"),
        si: audit("speed-index"),
        finalUrl: lhr.finalDisplayedUrl,
        scripts: requests.filter((r) => r.resourceType === "Script").map((r) => r.url),
        lhr,
      });
    } finally {
      await chrome.kill();
    }
  }
  const scores = results.map((r) => r.score);
  const med = median(scores);
  // The run whose score is the median (the lower middle one for an even count).
  const medianRun = [...results].sort((a, b) => a.score - b.score)[Math.floor((results.length - 1) / 2)];
  return { url, runs: results, medianScore: med, medianRun, scores };
}
