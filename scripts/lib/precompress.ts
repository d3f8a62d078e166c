import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Plugin } from "vite";

/** Files worth compressing: text, above a size where the headers would eat the gain. */
const COMPRESSIBLE = /\.(js|css|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of the build, once,
 * at build time (the best levels: the cost is paid once, never per request). The server's static
 * files (@fastify/static with `preCompressed`, server/app.ts) send the copy the browser accepts,
 * with `Vary: Accept-Encoding`; a browser that accepts neither gets the file itself. The JavaScript
 * a first visit loads shrinks to about a third on the wire (a phone on a slow network feels it most:
 * the outside party's page of issue 27 is opened from an e-mail, on a cold browser).
 */
export function precompress(): Plugin {
  let outDir = "";
  return {
    name: "permitrack-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const p = path.join(dir, e.name);
          return e.isDirectory() ? walk(p) : [p];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const bytes = fs.readFileSync(file);
        if (bytes.length < MIN_BYTES) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(bytes, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            },
          }),
        );
      }
    },
  };
}
