// A local S3-protocol server for tests and trying S3 by hand (decision 0024): s3rver, a dev
// dependency, keeping its objects in a folder. Not for production: it checks no signature, only
// that the access key is its own (S3RVER).
//
//   npm run s3:local -- [--port 9000] [--dir data/s3] [--bucket permitrack] [--verbose]
//
// Listens on 127.0.0.1 (--port 0: a free port), creates the bucket when missing, and prints one JSON
// line when ready: {"endpoint":"http://127.0.0.1:PORT","bucket":"…","accessKeyId":"S3RVER",…}. Run
// under `node --openssl-legacy-provider` (as `npm run s3:local` does): s3rver makes its listing's
// continuation tokens with DES, which OpenSSL 3 has only in its legacy provider.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import S3rver from "s3rver";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "9000" },
    dir: { type: "string", default: "data/s3" },
    bucket: { type: "string", default: "permitrack" },
    verbose: { type: "boolean", default: false },
    "exit-with-stdin": { type: "boolean", default: false },
  },
});

const directory = path.resolve(values.dir);
fs.mkdirSync(directory, { recursive: true });
const server = new S3rver({
  address: "127.0.0.1",
  port: Number(values.port),
  directory,
  silent: !values.verbose,
  // Its own name for the store's host, so that http://127.0.0.1:PORT/bucket/key is path-style.
  serviceEndpoint: "s3.local",
  configureBuckets: [{ name: values.bucket, configs: [] }],
});
const { port } = await server.run();
const endpoint = `http://127.0.0.1:${port}`;
console.log(
  JSON.stringify({
    endpoint,
    bucket: values.bucket,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
    directory,
  }),
);

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  server.close().finally(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// --exit-with-stdin (the tests' helper): a parent that ends closes our stdin; stop with it, never linger.
if (values["exit-with-stdin"]) {
  process.stdin.on("end", stop);
  process.stdin.resume();
}
