import { describe, expect, it } from "vitest";
import { ATTACHMENT_FILENAME_MAX } from "../../../shared/schemas/attachments.ts";
import {
  attachmentDisposition,
  displayFilename,
  downloadContentType,
  normaliseContentType,
} from "./file-names.ts";

describe("displayFilename", () => {
  it("strips directories of either separator", () => {
    expect(displayFilename("../../etc/passwd")).toBe("passwd");
    expect(displayFilename("..\\..\\Windows\\win.ini")).toBe("win.ini");
    expect(displayFilename("/var/tmp/plan.pdf")).toBe("plan.pdf");
  });

  it("keeps unicode, removes controls and bidi overrides", () => {
    expect(displayFilename("Genehmigung Straße – Ω.pdf")).toBe("Genehmigung Straße – Ω.pdf");
    expect(displayFilename("evil\u0000name\r\n.txt")).toBe("evilname.txt");
    expect(displayFilename("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
  });

  it("falls back for empty or dot-only names", () => {
    expect(displayFilename("")).toBe("file");
    expect(displayFilename(undefined)).toBe("file");
    expect(displayFilename("..")).toBe("file");
    expect(displayFilename("dir/")).toBe("file");
  });

  it("caps the length and keeps the extension", () => {
    const name = displayFilename(`${"a".repeat(500)}.pdf`);
    expect([...name]).toHaveLength(ATTACHMENT_FILENAME_MAX);
    expect(name.endsWith(".pdf")).toBe(true);
  });
});

describe("attachmentDisposition", () => {
  it("gives an ASCII fallback and the exact UTF-8 name", () => {
    expect(attachmentDisposition("Straße plan (v2).pdf")).toBe(
      `attachment; filename="Stra_e plan (v2).pdf"; filename*=UTF-8''Stra%C3%9Fe%20plan%20%28v2%29.pdf`,
    );
    expect(attachmentDisposition("café.txt")).toBe(
      `attachment; filename="cafe.txt"; filename*=UTF-8''caf%C3%A9.txt`,
    );
  });

  it("cannot be broken out of by quotes or backslashes", () => {
    expect(attachmentDisposition('a"; filename="x.html')).toBe(
      `attachment; filename="a_; filename=_x.html"; filename*=UTF-8''a%22%3B%20filename%3D%22x.html`,
    );
  });
});

describe("content types", () => {
  it("normalises the declared type", () => {
    expect(normaliseContentType("Application/PDF; charset=binary")).toBe("application/pdf");
    expect(normaliseContentType("nonsense")).toBe("application/octet-stream");
    expect(normaliseContentType(undefined)).toBe("application/octet-stream");
  });

  it("serves active types as octet-stream", () => {
    for (const t of [
      "text/html",
      "image/svg+xml",
      "application/xml",
      "text/xml",
      "text/javascript",
      "application/xhtml+xml",
    ]) {
      expect(downloadContentType(t)).toBe("application/octet-stream");
    }
    expect(downloadContentType("application/pdf")).toBe("application/pdf");
    expect(downloadContentType("image/png")).toBe("image/png");
  });
});
