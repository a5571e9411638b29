/**
 * Request bodies are bounded and checked before Remix reads them (server.mjs, through the
 * build's entry module). Every action reads a form, so a body that is not one is answered here,
 * quietly: 413 over the route's limit (by Content-Length, else by counting the streamed bytes),
 * 415 for another content type (JSON, text), 400 for a missing or broken body. Nothing of a
 * refused body is read further or echoed back. The JSON APIs are the exception: bounded by
 * their own limit (POST /api/events: a batch of events), held to JSON by their route.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Transform, type TransformCallback } from "node:stream";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import { MAX_IMAGE_BYTES, MAX_VIDEO_BYTES } from "~/domain/media";
import { LOGO_MAX_BYTES } from "~/domain/team-form";
import { FEED_MAX_BYTES } from "~/domain/catalog-feed";
import { KEYWORD_CSV_MAX_BYTES } from "~/domain/campaigns/targets";

const KIB = 1024;
const MIB = 1024 * KIB;

/** A form without files: far above any form of the console, far below harm. */
export const FORM_BODY_LIMIT = 1 * MIB;
/** Room for a multipart form's text fields and part headers besides its files. */
const MULTIPART_OVERHEAD = 1 * MIB;

/**
 * The routes that take uploads, with the largest multipart body each may receive: the upload
 * services' own limits (one video, or the banners of a campaign; a team logo) plus the text.
 */
const UPLOAD_ROUTES: readonly { pattern: RegExp; limit: number }[] = [
  { pattern: /^\/campaigns\/[^/]+\/creative$/, limit: Math.max(MAX_VIDEO_BYTES, 8 * MAX_IMAGE_BYTES) + MULTIPART_OVERHEAD },
  { pattern: /^\/teams\/new$/, limit: LOGO_MAX_BYTES + MULTIPART_OVERHEAD },
  /** A keyword CSV (issue 10: up to 100,000 keywords). */
  { pattern: /^\/campaigns\/[^/]+\/keywords$/, limit: KEYWORD_CSV_MAX_BYTES + MULTIPART_OVERHEAD },
  { pattern: /^\/teams\/[^/]+\/settings$/, limit: LOGO_MAX_BYTES + MULTIPART_OVERHEAD },
  /** The profile photo (same limit as a team logo): a photo over it reaches the form, which says so. */
  { pattern: /^\/profile$/, limit: LOGO_MAX_BYTES + MULTIPART_OVERHEAD },
  // A catalog feed (CSV or JSON).
  { pattern: /^\/catalog\/import$/, limit: FEED_MAX_BYTES + MULTIPART_OVERHEAD },
];


const BODYLESS_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The route path of a request path (single-fetch data requests end in .data). */
function routePath(pathname: string): string {
  const path = pathname.replace(/\.data$/, "").replace(/\/+$/, "");
  return path === "" || path === "/_root" ? "/" : path;
}

/** A batch of ad events: 10,000 events of about 400 bytes, with room to spare. */
export const EVENTS_BODY_LIMIT = 5 * MIB;

/** JSON APIs with a limit of their own, each at exactly its path (not its .data twin). */
export const JSON_API_ROUTES: readonly { path: string; limit: number }[] = [
  { path: "/api/events", limit: EVENTS_BODY_LIMIT },
  // A /metrics request names a period, groups and filters: small.
  { path: "/api/metrics", limit: FORM_BODY_LIMIT },
  // A /search request: a query, up to 1,000 ids and a few field names.
  { path: "/api/search/product", limit: FORM_BODY_LIMIT },
  { path: "/api/search/keyword", limit: FORM_BODY_LIMIT },
  { path: "/api/search/category", limit: FORM_BODY_LIMIT },
];

function jsonApiRoute(pathname: string) {
  const path = pathname.replace(/\/+$/, "");
  return JSON_API_ROUTES.find((route) => route.path === path) ?? null;
}

/**
 * Whether a path is one of the JSON APIs: each authenticates its calls by a bearer token (the ad
 * server's events key, a user's identity token), never by the session cookie, so server.mjs does
 * not hold them to the origin check and a call without a token gets the API's own 401.
 */
export function isTokenApiPath(pathname: string): boolean {
  return jsonApiRoute(pathname) !== null;
}

/** The largest body a request may carry. */
export function bodyLimitFor(pathname: string, contentType: string): number {
  const api = jsonApiRoute(pathname);
  if (api) return api.limit;
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) return FORM_BODY_LIMIT;
  const path = routePath(pathname);
  return UPLOAD_ROUTES.find((route) => route.pattern.test(path))?.limit ?? FORM_BODY_LIMIT;
}

export type BodyRefusal = { status: 400 | 413 | 415; message: string };

const REFUSALS = {
  tooLarge: { status: 413, message: "Payload Too Large" },
  notAForm: { status: 415, message: "Unsupported Media Type: a form is expected" },
  noBody: { status: 400, message: "Bad Request: a form is expected" },
  broken: { status: 400, message: "Bad Request: the form could not be read" },
} as const satisfies Record<string, BodyRefusal>;

export interface BodyHead {
  method: string;
  pathname: string;
  contentType: string | undefined;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
}

/** What can be decided from the request line and headers alone. */
export function checkBodyHead(head: BodyHead): { refusal: BodyRefusal } | { limit: number; boundary: string | null } | null {
  if (BODYLESS_METHODS.has(head.method)) return null;
  const contentType = (head.contentType ?? "").trim();
  const declared = head.contentLength === undefined ? null : Number(head.contentLength);
  const hasBody = head.transferEncoding !== undefined || (declared !== null && declared > 0);
  const limit = bodyLimitFor(head.pathname, contentType);
  if (declared !== null && (!Number.isFinite(declared) || declared > limit)) return { refusal: REFUSALS.tooLarge };
  if (jsonApiRoute(head.pathname)) return { limit, boundary: null };
  const mediaType = contentType.split(";")[0].trim().toLowerCase();
  if (!mediaType) return { refusal: hasBody ? REFUSALS.notAForm : REFUSALS.noBody };
  if (mediaType === "application/x-www-form-urlencoded") return { limit, boundary: null };
  if (mediaType !== "multipart/form-data") return { refusal: REFUSALS.notAForm };
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  if (!boundary || !hasBody) return { refusal: REFUSALS.broken };
  return { limit, boundary: boundary[1] ?? boundary[2] };
}

/**
 * Passes the body through, counting it: past `limit` bytes, or for a multipart body that does
 * not open and close with its boundary, it fails with the refusal instead of ending.
 */
export class CheckedBody extends Transform {
  refusal: BodyRefusal | null = null;
  private bytes = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  constructor(
    private readonly limit: number,
    private readonly boundary: string | null,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return this.refuse(REFUSALS.tooLarge, callback);
    if (this.boundary) {
      if (this.head.length < 512) this.head = Buffer.concat([this.head, chunk]).subarray(0, 512);
      this.tail = Buffer.concat([this.tail, chunk]).subarray(-256);
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.boundary && !this.wellFormed(this.boundary)) return this.refuse(REFUSALS.broken, callback);
    callback();
  }

  private wellFormed(boundary: string): boolean {
    const delimiter = `--${boundary}`;
    const head = this.head.toString("latin1");
    const tail = this.tail.toString("latin1").replace(/(\r\n)+$/, "");
    // The first delimiter opens a part (after an optional preamble); the last one closes the body.
    const first = head.startsWith(delimiter) ? 0 : head.indexOf(`\r\n${delimiter}`);
    return first >= 0 && first < 256 && tail.endsWith(`${delimiter}--`) && this.bytes > delimiter.length * 2 + 4;
  }

  private refuse(refusal: BodyRefusal, callback: TransformCallback): void {
    this.refusal = refusal;
    callback(new BodyRefusedError(refusal));
  }
}

export class BodyRefusedError extends Error {
  constructor(readonly refusal: BodyRefusal) {
    super(refusal.message);
  }
}

/** Sends a refusal and stops reading the rest of the body. */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: BodyRefusal): void {
  if (res.headersSent) return;
  res.statusCode = refusal.status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  // The client may still be sending: close the connection rather than read what is left.
  if (!req.complete) res.setHeader("Connection", "close");
  res.end(refusal.message);
  req.unpipe();
  if (!req.complete) res.once("finish", () => req.destroy());
}

/**
 * The body Remix is to read, or null for a bodyless method. A refusal known from the headers is
 * sent at once (and null returned with `refused`); one found while streaming is sent when found
 * (the stream errors, so an action never sees a cut or broken form).
 */
export function checkedBody(
  req: IncomingMessage & { method?: string },
  res: ServerResponse,
  pathname: string,
): { body: CheckedBody | null; refused: boolean } {
  const head = checkBodyHead({
    method: req.method ?? "GET",
    pathname,
    contentType: req.headers["content-type"],
    contentLength: req.headers["content-length"],
    transferEncoding: req.headers["transfer-encoding"],
  });
  if (head === null) return { body: null, refused: false };
  if ("refusal" in head) {
    sendRefusal(req, res, head.refusal);
    return { body: null, refused: true };
  }
  const body = new CheckedBody(head.limit, head.boundary);
  body.on("error", (error) => {
    if (error instanceof BodyRefusedError) sendRefusal(req, res, error.refusal);
  });
  req.pipe(body);
  return { body, refused: false };
}

// ---------------------------------------------------------------------------------------------
// The Express handler in front of Remix (server.mjs)

type ExpressRequest = IncomingMessage & {
  method: string;
  path: string;
  protocol: string;
  hostname: string;
  originalUrl: string;
  get(name: string): string | undefined;
};
const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  429: "Too Many Requests",
};

type RemixHandle = (request: Request, context: Record<string, unknown>) => Promise<Response>;

/** The Fetch request Remix reads, with the checked body in place of the raw one. */
function remixRequest(req: ExpressRequest, res: ServerResponse, body: CheckedBody | null): Request {
  const port = (req.get("X-Forwarded-Host") ?? req.get("host") ?? "").split(":")[1];
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  let controller: AbortController | null = new AbortController();
  const signal = controller.signal;
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal };
  if (body) {
    init.body = createReadableStreamFromReadable(body);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

/**
 * Sends Remix's response. A header the server already set (request id, nosniff, referrer
 * policy) is replaced, not repeated; cookies are appended.
 */
async function sendResponse(req: ExpressRequest, res: ServerResponse, response: Response): Promise<void> {
  // A resource route's refusal (thrown data() or Response) comes out of Remix as JSON saying
  // 'Unexpected Server Error': a download link answers the status in words instead.
  if (response.headers.get("X-Remix-Error") === "yes" && response.status < 500 && !req.path.endsWith(".data")) {
    response = new Response(STATUS_TEXT[response.status] ?? "Request refused", {
      status: response.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  // A form posted to a page that takes none (a forged or hand-edited request): Remix renders its
  // error page, saying 'Error occurred' (a server fault) and carrying its internal message (the
  // route's file) in the page's data. The method is refused in words instead, as above.
  if (response.status === 405 && req.method !== "GET" && req.method !== "HEAD" && (response.headers.get("Content-Type") ?? "").startsWith("text/html")) {
    response = new Response("Method Not Allowed", {
      status: 405,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", Allow: "GET, HEAD" },
    });
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}

/** The handler of every request that is not a static file: body checks, then Remix. */
export function createRemixHandler(handle: RemixHandle, getLoadContext: (req: ExpressRequest) => Record<string, unknown>) {
  return async (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => {
    try {
      const { body, refused } = checkedBody(req, res, req.path);
      if (refused) return;
      const context = { ...getLoadContext(req), bodyRefused: () => body?.refusal != null };
      const response = await handle(remixRequest(req, res, body), context);
      // A refusal found while the body streamed has been answered already.
      if (res.headersSent || body?.refusal) return;
      await sendResponse(req, res, response);
    } catch (error) {
      if (!res.headersSent) next(error);
    }
  };
}

/**
 * The error handler after Remix's (server.mjs): a request Express itself refuses, such as a path
 * with a broken percent-escape (/%E0%A4%A, a 400), is answered in words like a refused body, and
 * not logged (Express's own handler writes the stack of every such request to the log). Anything
 * else goes on to Express's handler.
 */
export function answerClientErrors(error: unknown, _req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
  const status = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status !== "number" || status < 400 || status >= 500 || res.headersSent) return next(error);
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(STATUS_TEXT[status] ?? "Request refused");
}
