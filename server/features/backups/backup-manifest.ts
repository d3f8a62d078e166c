import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Writable, type Readable } from "node:stream";
import { z } from "zod";

/**
 * A backup is one folder, permitrack-backup-<time>/, holding:
 *   manifest.json     this file's shape: what was taken, with every count and hash a restore checks
 *   database.dump     PostgreSQL: pg_dump's custom format (pg_restore reads it)
 *   database.sql.gz   the embedded database: a plain SQL dump, gzipped (psql or the restore command
 *                     loads it into PostgreSQL or PGlite)
 *   files/<key>       the stored files, when they live in the local folder (with S3 the manifest
 *                     lists the objects; the bucket keeps them, versioned: the store's part)
 *   session-secret    the embedded default's generated secret (DATA_DIR/session-secret), when the
 *                     server made one: two-factor secrets are encrypted with it
 * It is written in <name>.partial and renamed when complete: a folder without that suffix is whole.
 */

export const MANIFEST_FILE = "manifest.json";
export const BACKUP_PREFIX = "permitrack-backup-";
export const PARTIAL_SUFFIX = ".partial";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const ManifestSchema = z.object({
  format: z.literal("permitrack-backup"),
  version: z.literal(1),
  createdAt: z.iso.datetime(),
  appVersion: z.string(),
  database: z.object({
    kind: z.enum(["pg", "pglite"]),
    file: z.enum(["database.dump", "database.sql.gz"]),
    bytes: z.number().int().nonnegative(),
    sha256: Sha256,
    /** The server's version (SHOW server_version), for the operator choosing client tools. */
    serverVersion: z.string(),
  }),
  /** Every table of the app's schemas (public, drizzle) with its row count, as of the dump's snapshot. */
  tables: z.record(z.string(), z.number().int().nonnegative()),
  files: z.object({
    /** local: copied under files/; bucket: listed only (the objects stay in the bucket). */
    storage: z.enum(["local", "bucket"]),
    items: z.array(z.object({ key: z.string(), bytes: z.number().int().nonnegative(), sha256: Sha256 })),
  }),
  sessionSecret: z.boolean(),
  /** Everything in the folder, the manifest aside. */
  totalBytes: z.number().int().nonnegative(),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** Reads and checks a backup folder's manifest; a clear error when it is not a whole backup. */
export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  if (dir.endsWith(PARTIAL_SUFFIX))
    throw new Error(`${dir} is an unfinished backup (its name ends in ${PARTIAL_SUFFIX}).`);
  if (!fs.existsSync(file)) throw new Error(`${dir} is not a Permitrack backup: it has no ${MANIFEST_FILE}.`);
  const parsed = ManifestSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
  if (!parsed.success)
    throw new Error(`${file} is not a Permitrack backup manifest: ${parsed.error.issues[0]?.message ?? ""}`);
  return parsed.data;
}

/** SHA-256 and length of a stream, read once. */
export async function hashStream(source: Readable): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  await pipeline(
    source,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done();
      },
    }),
  );
  return { sha256: hash.digest("hex"), bytes };
}

export const hashFile = (file: string) => hashStream(fs.createReadStream(file));

/** A storage key's place under a backup's files/ (keys are checked: lowercase words and slashes). */
export function fileInBackup(dir: string, key: string): string {
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(key)) throw new Error(`invalid storage key in the backup: ${key}`);
  return path.join(dir, "files", key);
}

/** The folder name of a backup taken at `at`: permitrack-backup-20261127T023000Z. */
export function backupName(at: Date): string {
  return `${BACKUP_PREFIX}${at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}`;
}

/** The time a backup folder's name records, or null for any other name. */
export function backupTime(name: string): Date | null {
  const m = /^permitrack-backup-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(name);
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`) : null;
}
