/**
 * The files part of ARCHITECTURE.md (logos, later banners, videos, report files): a small
 * interface, and its embedded implementation, a folder under DATA_DIR/files. A Cloud Storage
 * implementation (firebase-admin) can stand behind the same interface.
 *
 * Keys are relative paths such as "teams/acme-brand/logo-1f3c….png": lower-case folders, one
 * file name, no "..", so a key can never leave the folder.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "./env.server";

export interface StoredFile {
  bytes: Uint8Array<ArrayBuffer>;
  contentType: string;
}

export interface FileStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*\/[A-Za-z0-9][A-Za-z0-9_-]*\.[a-z0-9]{1,5}$/;
const MAX_KEY_LENGTH = 300;

export function isValidFileKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key) && !key.split("/").includes("..");
}

/** Files are served with the type of their extension; the extension was chosen from their content. */
const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
};

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

export function createLocalFileStore(root: string): FileStore {
  const resolve = (key: string) => {
    if (!isValidFileKey(key)) throw new RangeError(`Invalid file key: ${key}`);
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new RangeError(`Invalid file key: ${key}`);
    return full;
  };
  return {
    async put(key, bytes) {
      const full = resolve(key);
      await fs.mkdir(path.dirname(full), { recursive: true });
      // Written aside then renamed: a reader never sees half a file.
      const temp = `${full}.${randomUUID()}.tmp`;
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, full);
    },
    async get(key) {
      if (!isValidFileKey(key)) return null;
      try {
        const bytes = await fs.readFile(resolve(key));
        return { bytes: new Uint8Array(bytes), contentType: contentTypeOf(key) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      if (!isValidFileKey(key)) return;
      await fs.rm(resolve(key), { force: true });
    },
  };
}

let store: { root: string; files: FileStore } | undefined;

/** The files store of this process: DATA_DIR/files. */
export function getFileStore(): FileStore {
  const root = path.resolve(getEnv().DATA_DIR, "files");
  if (!store || store.root !== root) store = { root, files: createLocalFileStore(root) };
  return store.files;
}

/** The URL the console serves a stored file at (files.$.tsx checks who may read it). */
export function fileUrl(key: string | null): string | null {
  return key ? `/files/${key}` : null;
}
