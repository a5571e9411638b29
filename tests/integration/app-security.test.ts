/**
 * The server's handler in front of Remix (app/http/request-body.server.ts, used by server.mjs):
 * bodies bounded before they are read, non-form bodies answered 400/415 quietly, each header
 * once. An Express app with that handler and a stand-in for Remix that reads the form as an
 * action does, over real HTTP (chunked bodies included).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRemixHandler, FORM_BODY_LIMIT } from "~/http/request-body.server";
import { LOGO_MAX_BYTES } from "~/domain/team-form";

let server: http.Server;
let base: string;
const seen: { path: string; fields: number; bytes: number }[] = [];

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    next();
  });
  // Remix stand-in: an action reads the form; a page sets the security headers as entry.server does.
  const handle = async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === "/forbidden.csv") {
      return new Response(JSON.stringify({ message: "Unexpected Server Error" }), {
        status: 403,
        headers: { "Content-Type": "application/json", "X-Remix-Error": "yes" },
      });
    }
    if (request.method === "GET") {
      return new Response("<!DOCTYPE html><p>page</p>", {
        headers: { "Content-Type": "text/html", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin" },
      });
    }
    const form = await request.formData();
    let bytes = 0;
    for (const [, value] of form) bytes += typeof value === "string" ? value.length : value.size;
    seen.push({ path, fields: [...form.keys()].length, bytes });
    return new Response(`ok ${[...form.keys()].join(",")}`, { status: 200 });
  };
  app.all("*", createRemixHandler(handle, () => ({})) as never);
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
}

/** A raw request: `chunks` are written one by one (chunked when no Content-Length is given). */
function send(method: string, path: string, headers: Record<string, string>, chunks: (string | Buffer)[] = []): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The server may close the connection while a refused body is still being sent.
      if (error.code === "EPIPE" || error.code === "ECONNRESET") return;
      reject(error);
    });
    (async () => {
      for (const chunk of chunks) {
        if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
      }
      req.end();
    })().catch(() => undefined);
  });
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const MULTIPART = (boundary = "XyZ") => ({ "Content-Type": `multipart/form-data; boundary=${boundary}` });
const part = (name: string, value: string, boundary = "XyZ") =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

describe("request-size limit", () => {
  it("reads a normal form", async () => {
    const reply = await send("POST", "/login", FORM, ["email=a%40b.example&password=x"]);
    expect(reply).toMatchObject({ status: 200, body: "ok email,password" });
  });

  it("answers 413 by Content-Length, without reading the body or echoing it", async () => {
    const big = `email=${"A".repeat(FORM_BODY_LIMIT + 10)}`;
    const before = seen.length;
    const reply = await send("POST", "/login", { ...FORM, "Content-Length": String(Buffer.byteLength(big)) }, [big]);
    expect(reply.status).toBe(413);
    expect(reply.body).toBe("Payload Too Large");
    expect(seen.length).toBe(before);
  });

  it("answers 413 to a chunked body (no Content-Length) once it passes the limit, and the action never gets it", async () => {
    const before = seen.length;
    const chunk = "A".repeat(64 * 1024);
    const chunks = ["email=", ...Array.from({ length: 50 }, () => chunk)]; // ~3 MB
    const reply = await send("POST", "/login", FORM, chunks);
    expect(reply.status).toBe(413);
    expect(reply.body).not.toContain("AAAA");
    expect(seen.length).toBe(before);
  });

  it("lets an upload route take a multipart body up to its own limit, and no further", async () => {
    const boundary = "UpLoad";
    const file = "B".repeat(2 * 1024 * 1024);
    const body = `${part("intent", "save-creative", boundary)}--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n${file}\r\n--${boundary}--\r\n`;
    const ok = await send("POST", "/campaigns/c1/creative", MULTIPART(boundary), [body]);
    expect(ok.status).toBe(200);
    // The same 2 MB to a route without uploads, or as a team logo (1 MB), is refused.
    expect((await send("POST", "/campaigns/c1/budget", MULTIPART(boundary), [body])).status).toBe(413);
    expect((await send("POST", "/teams/new", MULTIPART(boundary), [body])).status).toBe(413);
    const huge = { ...MULTIPART(boundary), "Content-Length": String(200 * 1024 * 1024) };
    expect((await send("POST", "/campaigns/c1/creative", huge, [])).status).toBe(413);
  });

  it("lets a profile photo at its 1 MB limit, or a little over it, reach the form (which says 'at most 1 MB'), not a bare 413", async () => {
    const boundary = "PhOto";
    const photo = (bytes: number) =>
      `${part("intent", "update-photo", boundary)}--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n${"P".repeat(bytes)}\r\n--${boundary}--\r\n`;
    for (const bytes of [LOGO_MAX_BYTES, LOGO_MAX_BYTES + 200 * 1024]) {
      const reply = await send("POST", "/profile", MULTIPART(boundary), [photo(bytes)]);
      expect(reply).toMatchObject({ status: 200, body: "ok intent,photo" });
    }
    // Far over it, the body is still refused before it is read.
    expect((await send("POST", "/profile", MULTIPART(boundary), [photo(3 * 1024 * 1024)])).status).toBe(413);
  });
});

describe("bodies that are not forms", () => {
  it.each([
    ["JSON", { "Content-Type": "application/json" }, ['{"email":"a@b.example"}'], 415],
    ["text/plain", { "Content-Type": "text/plain" }, ["email=a"], 415],
    ["XML", { "Content-Type": "application/xml" }, ["<a/>"], 415],
    ["a body without a type", {}, ["email=a"], 415],
    ["no body", {}, [], 400],
    ["multipart without a boundary", { "Content-Type": "multipart/form-data" }, [part("a", "b") + "--XyZ--"], 400],
    ["multipart with another boundary", MULTIPART("Other"), [part("a", "b") + "--XyZ--\r\n"], 400],
    ["multipart cut short", MULTIPART(), [part("a", "b")], 400],
    ["multipart that is JSON", MULTIPART(), ['{"a":1}'], 400],
    ["multipart with no body", MULTIPART(), [], 400],
  ] as [string, Record<string, string>, string[], number][])("%s answers %s, before any action reads it", async (_label, headers, chunks, status) => {
    const before = seen.length;
    for (const path of ["/login", "/campaigns", "/teams/t1/wallets.data", "/api/reload-failure"]) {
      const reply = await send("POST", path, headers, chunks);
      expect(reply.status, path).toBe(status);
      expect(reply.body, path).not.toMatch(/Error:|at .*\(/);
    }
    expect(seen.length).toBe(before);
  });

  it("reads a well-formed multipart form", async () => {
    const reply = await send("POST", "/profile", MULTIPART(), [part("intent", "x") + part("name", "y") + "--XyZ--\r\n"]);
    expect(reply).toMatchObject({ status: 200, body: "ok intent,name" });
  });

  it("leaves GET alone", async () => {
    expect((await send("GET", "/login", {})).status).toBe(200);
  });
});

describe("headers", () => {
  it("sends each security header once on an HTML page", async () => {
    const reply = await send("GET", "/login", {});
    const names = reply.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    for (const name of ["x-content-type-options", "referrer-policy", "content-type"]) {
      expect(names.filter((n) => n === name), name).toHaveLength(1);
    }
    expect(reply.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("answers a resource route's refusal with its status in words, not 'Unexpected Server Error'", async () => {
    const reply = await send("GET", "/forbidden.csv", {});
    expect(reply.status).toBe(403);
    expect(reply.body).toBe("Forbidden");
  });
});

describe("handleError", () => {
  it("logs unexpected errors, readable, and keeps refusals and refused bodies out of the log", async () => {
    const { handleError } = await import("~/entry.server");
    const { data } = await import("@remix-run/node");
    const { UNSAFE_ErrorResponseImpl: ErrorResponseImpl } = await import("@remix-run/router");
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const request = new Request("http://console.test/teams/t/wallets/w/export.csv");
      const ctx = (context = {}) => ({ request, context, params: {} }) as never;
      handleError(data({ error: "errors.insufficientPermissions" }, { status: 403 }), ctx());
      handleError(new ErrorResponseImpl(403, "", { error: "errors.insufficientPermissions" }), ctx());
      handleError(new Response(null, { status: 404 }), ctx());
      handleError(new TypeError("Failed to parse body as FormData."), ctx({ bodyRefused: () => true }));
      expect(log).not.toHaveBeenCalled();

      handleError(new Error("boom"), ctx({ requestId: "r1" }));
      handleError({ some: "thing" }, ctx({ requestId: "r2" }));
      expect(log).toHaveBeenCalledTimes(2);
      expect(JSON.parse(log.mock.calls[0][0] as string)).toMatchObject({ requestId: "r1", error: { message: "boom" } });
      expect(log.mock.calls[1][0]).not.toContain("[object Object]");
      expect(log.mock.calls[1][0]).toContain("thing");
    } finally {
      log.mockRestore();
    }
  });
});
