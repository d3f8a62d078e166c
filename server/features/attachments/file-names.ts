import { ATTACHMENT_FILENAME_MAX } from "../../../shared/schemas/attachments.ts";

// C0/C1 controls, and the invisible format characters that can disguise an extension
// ("invoice\u202Efdp.exe" displays as "invoiceexe.pdf"). Matching controls is the point here.
const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * The uploader's file name made fit for display and Content-Disposition. It is never used as a
 * path (files are stored under server-generated keys), but directories, controls and
 * extension-disguising characters are removed and the length is capped, keeping the extension.
 */
export function displayFilename(raw: string | undefined): string {
  const base = (raw ?? "").split(/[\\/]/).pop() ?? "";
  let name = base.normalize("NFC").replace(UNSAFE_CHARS, "").trim();
  if (/^\.*$/.test(name)) return "file";
  const chars = [...name];
  if (chars.length > ATTACHMENT_FILENAME_MAX) {
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : "";
    name =
      chars
        .slice(0, ATTACHMENT_FILENAME_MAX - [...ext].length)
        .join("")
        .trimEnd() + ext;
  }
  return name;
}

const encodeRfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266). Never inline. */
export function attachmentDisposition(filename: string): string {
  const ascii =
    filename
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]/g, "_")
      .replace(/["\\%]/g, "_") || "download";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The declared type as stored: lower-case and without parameters; anything malformed becomes octet-stream. */
export function normaliseContentType(declared: string | undefined): string {
  const type = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  return MIME.test(type) ? type : "application/octet-stream";
}

// Types a browser does not execute or render as a document. Everything else (HTML, SVG, XML,
// JavaScript, unknown) is served as octet-stream, so the declared type of an upload can never
// turn a download into an active page.
const PASSIVE_TYPES = new Set([
  "application/pdf",
  "application/zip",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "text/plain",
  "text/csv",
]);

/** The Content-Type a download is served with. */
export function downloadContentType(stored: string): string {
  return PASSIVE_TYPES.has(stored) ? stored : "application/octet-stream";
}
