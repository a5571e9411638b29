/**
 * Multipart forms (uploads): each expected file field is kept in memory up to one byte over its
 * own limit, so a use case can still tell "too large" without the server holding more; other
 * files are ignored and text fields are bounded. A URL-encoded form is read as usual.
 */
import { unstable_parseMultipartFormData as parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { maxBytesFor, type CampaignAssetKind } from "~/domain/media";
import { LOGO_MAX_BYTES } from "~/domain/team-form";
import { SKU_CSV_MAX_BYTES } from "~/domain/campaigns/product-csv";

const MAX_TEXT_PART_BYTES = 64 * 1024;
const MAX_PARTS = 200;

async function drain(data: AsyncIterable<Uint8Array>) {
  for await (const _ of data) {
    /* discard */
  }
}

/**
 * An upload handler for a multipart form: each file field named in `fileLimits` is kept in memory
 * up to one byte over its limit (so "too large" can still be told without holding more), other
 * files are ignored, text fields are kept up to 64 KB.
 */
export function limitedUploadHandler(fileLimits: Record<string, number>, maxParts = MAX_PARTS): UploadHandler {
  let parts = 0;
  return async ({ name, filename, contentType, data }) => {
    parts += 1;
    const isFile = typeof filename === "string";
    const fileLimit = Object.hasOwn(fileLimits, name) ? fileLimits[name] : undefined;
    if (parts > maxParts || (isFile && fileLimit === undefined)) {
      await drain(data);
      return undefined;
    }
    const limit = isFile ? fileLimit! + 1 : MAX_TEXT_PART_BYTES;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      if (size >= limit) continue;
      const room = limit - size;
      const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.byteLength;
    }
    if (isFile) {
      if (filename === "" && size === 0) return undefined;
      return new File(chunks as BlobPart[], filename, { type: contentType });
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  };
}

/**
 * Reads a form that may carry campaign assets: `fields` maps each file field's name to the kind
 * of asset it holds (its size limit). A URL-encoded form is read as usual.
 */
export async function readCampaignAssetForm(request: Request, fields: Record<string, CampaignAssetKind>): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  const limits = Object.fromEntries(Object.entries(fields).map(([name, kind]) => [name, maxBytesFor(kind)]));
  return parseMultipartFormData(request, limitedUploadHandler(limits));
}

/** The team form: multipart (with a logo, up to the logo limit) or URL-encoded. */
export async function readTeamForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  return parseMultipartFormData(request, limitedUploadHandler({ logo: LOGO_MAX_BYTES }, TEAM_FORM_MAX_PARTS));
}

/** The team form has about twenty fields: more parts than this are ignored. */
const TEAM_FORM_MAX_PARTS = 60;

/** The profile's forms: the photo upload (multipart, at most LOGO_MAX_BYTES) or a URL-encoded form. */
export async function readPhotoForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  return parseMultipartFormData(request, limitedUploadHandler({ photo: LOGO_MAX_BYTES }, 10));
}

/** The Products section's forms: multipart for the CSV import (its file up to the import's limit), else URL-encoded. */
export async function readProductsForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!type.startsWith("multipart/form-data")) return request.formData();
  // The import's file and its few fields; any other form of the section posted as multipart keeps
  // its fields (a long list of positions), bounded by the body limit.
  return parseMultipartFormData(request, limitedUploadHandler({ file: SKU_CSV_MAX_BYTES }, 25_000));
}
