import { randomBytes } from "node:crypto";

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  content: string | Buffer;
}

/** A multipart/form-data body as a browser sends it (file names as raw UTF-8), for `inject`. */
export function multipart(parts: MultipartPart[]) {
  const boundary = `----permitrack${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const filename = p.filename === undefined ? "" : `; filename="${p.filename}"`;
    const type = p.contentType ? `Content-Type: ${p.contentType}\r\n` : "";
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${filename}\r\n${type}\r\n`,
      ),
    );
    chunks.push(Buffer.from(p.content), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}
