/**
 * Issue 26, item 4: nodes without a shared disk. Two servers with data folders of their own over
 * one PostgreSQL database and one bucket of a real S3-protocol server on 127.0.0.1 (s3rver, started
 * here: server/test-support/s3-server.ts). A file uploaded through one is downloaded through the
 * other, byte for byte; neither keeps it on its disk; an object changed in the bucket is refused by
 * both, and served again once put back.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { factories } from "../../server/test-support/factories.ts";
import { startS3Server, type TestS3Server } from "../../server/test-support/s3-server.ts";
import { openDatabase } from "../../server/db/client.ts";
import { migrateDatabase } from "../../server/db/migrate.ts";
import { CSRF_HEADER, CSRF_HEADER_VALUE } from "../../shared/domain/constants.ts";
import { signIn } from "./lib/http.ts";
import type { Report } from "./lib/report.ts";
import { AppServer, type ServerOptions } from "./lib/server.ts";
import { onCleanup, waitFor } from "./lib/util.ts";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Uploads `bytes` as a permit's attachment through `base`; the new attachment's id, or the status. */
async function upload(base: string, cookie: string, permitId: string, name: string, bytes: Buffer) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), name);
  const res = await fetch(`${base}/api/permits/${permitId}/attachments`, {
    method: "POST",
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: base, cookie },
    body: form,
    signal: AbortSignal.timeout(60_000),
  });
  const body = (await res.json()) as { attachment?: { id: string } };
  return { status: res.status, id: body.attachment?.id ?? "" };
}

/** Downloads an attachment through `base`: status and the bytes. */
async function download(base: string, cookie: string, id: string) {
  const res = await fetch(`${base}/api/attachments/${id}/download`, {
    headers: { cookie },
    signal: AbortSignal.timeout(60_000),
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every file under a folder, recursively (empty when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(dir, f)).isFile(),
  );
}

export async function filesOnTwoNodes(
  report: Report,
  opts: {
    databaseUrl: string;
    /** Options of a server with this name and data folder (port, database, secret, logs). */
    base: (name: string, dataDir: string) => Promise<Omit<ServerOptions, "smtpUrl">>;
    scratch: string;
  },
) {
  report.begin("Two nodes without a shared disk: one PostgreSQL database, one S3 bucket (issue 26)");
  const s3: TestS3Server = await startS3Server({ bucket: "permitrack-resilience" });
  onCleanup(() => s3.stop());

  const database = await openDatabase({ databaseUrl: opts.databaseUrl, poolSize: 2 });
  await migrateDatabase(database);
  const make = factories(database.db);
  const company = await make.company({ name: "Two Nodes Ltd" });
  const admin = await make.user({ role: "company-admin", companyId: company.id });
  const permit = await make.permit({ companyId: company.id });
  await database.close();

  const dirs = {
    "server-a": path.join(opts.scratch, "files-a"),
    "server-b": path.join(opts.scratch, "files-b"),
  };
  const node = async (name: keyof typeof dirs) => {
    const base = await opts.base(name, dirs[name]);
    return new AppServer({ ...base, env: { ...base.env, ...s3.env } });
  };
  const [a, b] = [await node("server-a"), await node("server-b")];
  onCleanup(async () => {
    await Promise.all([a.stop(), b.stop()]);
  });
  await Promise.all([a.start(), b.start()]);
  report.check(
    "two servers with data folders of their own started over one database and one bucket",
    a.running && b.running,
  );

  const cookie = await signIn(a.url, admin.email, admin.password);
  const small = Buffer.from(`%PDF-1.4 uploaded through A at ${new Date().toISOString()}`);
  const large = randomBytes(6 * 1024 * 1024 + 17); // past one part: a multipart upload
  const viaA = await upload(a.url, cookie, permit.id, "permit.pdf", small);
  const viaB = await upload(b.url, cookie, permit.id, "plans.pdf", large);
  report.check(
    "an upload through A and one of 6 MB through B are stored",
    viaA.status === 201 && viaB.status === 201,
    `A ${viaA.status}, B ${viaB.status}`,
  );

  const onB = await download(b.url, cookie, viaA.id);
  report.check(
    "the file uploaded through A is downloaded through B, byte for byte",
    onB.status === 200 && onB.bytes.equals(small),
    `B answered ${onB.status}, ${onB.bytes.length} bytes`,
  );
  const onA = await download(a.url, cookie, viaB.id);
  report.check(
    "the 6 MB file uploaded through B is downloaded through A, byte for byte",
    onA.status === 200 && sha(onA.bytes) === sha(large),
    `A answered ${onA.status}, ${onA.bytes.length} bytes`,
  );
  const keys = await s3.keys();
  const onDisk = [
    ...filesUnder(path.join(dirs["server-a"], "files")),
    ...filesUnder(path.join(dirs["server-b"], "files")),
  ];
  const copies = [
    ...filesUnder(path.join(dirs["server-a"], "tmp")),
    ...filesUnder(path.join(dirs["server-b"], "tmp")),
  ];
  report.check(
    "both files are in the bucket under the company's prefix, none on either node's disk",
    keys.length === 2 &&
      keys.every((k) => k.startsWith(`companies/${company.id}/attachments/`)) &&
      onDisk.length === 0 &&
      copies.length === 0,
    `bucket ${JSON.stringify(keys)}, disks ${JSON.stringify(onDisk)}, download copies ${JSON.stringify(copies)}`,
  );

  // An object changed in the bucket behind the app's back: refused by both nodes, none of it sent.
  const key = keys[0]!;
  const original = await s3.getBytes(key);
  const forged = Buffer.from(original);
  forged[forged.length - 1] = forged[forged.length - 1]! ^ 0xff;
  await s3.putBytes(key, forged);
  const changedId = original.equals(small) ? viaA.id : viaB.id;
  const refused = [await download(a.url, cookie, changedId), await download(b.url, cookie, changedId)];
  report.check(
    "an object changed in the bucket is refused by both nodes (409), none of its bytes sent",
    refused.every((r) => r.status === 409 && JSON.parse(r.bytes.toString()).code === "FILE_CHANGED"),
    refused.map((r) => `${r.status} ${r.bytes.subarray(0, 80).toString()}`).join(" / "),
  );
  await s3.putBytes(key, original);
  const restored = await download(b.url, cookie, changedId);
  report.check(
    "put back as uploaded, it is served again",
    restored.status === 200 && restored.bytes.equals(original),
    `B answered ${restored.status}`,
  );
  // Production logs go out in batches, at most a second late.
  const logged = await waitFor(
    "both nodes' log lines about the changed object",
    () => [a.log, b.log].every((log) => log.includes("changed in storage since it was uploaded")),
    { timeoutMs: 5000 },
  ).catch(() => false);
  const leaked = [a.log, b.log].some((log) => log.includes(s3.env.S3_SECRET_ACCESS_KEY!));
  report.check(
    "each node logged the refusal, and no log holds the S3 secret",
    logged && !leaked,
    `logged ${logged}, secret in a log ${leaked}`,
  );

  const stopped = await Promise.all([a.stop(), b.stop()]);
  report.check(
    "both servers stop cleanly on SIGTERM",
    stopped.every(Boolean),
    JSON.stringify([a.lastExit, b.lastExit]),
  );
  await s3.stop();
}
