import type { FastifyBaseLogger } from "fastify";
import { AppError, notFound } from "../errors.ts";
import {
  StoredFileChanged,
  StoredFileMissing,
  type Expected,
  type OpenedFile,
  type Storage,
} from "./storage.ts";

export const FILE_CHANGED_MESSAGE =
  "This file has changed in storage since it was uploaded, so it was not sent. An administrator can restore it from a backup.";

/**
 * Opens a stored file for a download, checked against what its row recorded (storage.open), and
 * turns what can go wrong into the answer, before any header of the download is sent: a missing
 * file is 404 `<what> not found.`, a changed one 409 FILE_CHANGED; both are logged at error level
 * with the row's ids and the key (never a credential). A row without a hash yet (stored before
 * issue 26) is served once its size matched, and `recordDigest` is called with what was read.
 */
export async function openCheckedDownload(
  storage: Storage,
  log: FastifyBaseLogger,
  file: { key: string } & Expected,
  what: { name: string; ids: Record<string, string> },
  recordDigest?: (digest: { size: number; sha256: string }) => Promise<void>,
): Promise<OpenedFile> {
  let opened: OpenedFile;
  try {
    opened = await storage.open(file.key, { size: file.size, sha256: file.sha256 });
  } catch (err) {
    if (err instanceof StoredFileMissing) {
      log.error({ ...what.ids, key: file.key }, `${what.name.toLowerCase()} missing from storage`);
      throw notFound(what.name);
    }
    if (err instanceof StoredFileChanged) {
      throw new AppError(409, "FILE_CHANGED", FILE_CHANGED_MESSAGE, undefined, undefined, {
        message: `${what.name.toLowerCase()} changed in storage since it was uploaded: refused, not served`,
        details: { ...what.ids, key: file.key, expected: err.expected, found: err.actual },
      });
    }
    throw err;
  }
  if (file.sha256 === null && recordDigest) {
    try {
      await recordDigest({ size: opened.size, sha256: opened.sha256 });
    } catch (err) {
      opened.stream.destroy();
      throw err;
    }
  }
  return opened;
}
