import { describe, expect, it } from "vitest";
import { createLinkSigner } from "./link-signer.ts";

describe("createLinkSigner", () => {
  const links = createLinkSigner("0123456789abcdef0123456789abcdef");

  it("signs 128 bits per purpose and verifies only the same purpose, payload and secret", () => {
    const signature = links.sign("a", "payload");
    expect(Buffer.from(signature, "base64url")).toHaveLength(16);
    expect(links.verify("a", "payload", signature)).toBe(true);
    expect(links.verify("b", "payload", signature)).toBe(false);
    expect(links.verify("a", "payload2", signature)).toBe(false);
    expect(links.verify("a", "payload", signature.slice(0, -1))).toBe(false);
    expect(createLinkSigner("another secret, just as long as it").verify("a", "payload", signature)).toBe(
      false,
    );
  });

  it("seals a secret per purpose: opened only with the same purpose and secret, never twice the same text", () => {
    const token = "k2J8tQ0wX4nB7pY1cV6mZ3sD9fG5hL0aR8eT2uI4oP6";
    const sealed = links.seal("document-request-link", token);
    expect(sealed).not.toContain(token);
    expect(links.seal("document-request-link", token)).not.toBe(sealed);
    expect(links.unseal("document-request-link", sealed)).toBe(token);
    expect(links.unseal("another-purpose", sealed)).toBeNull();
    expect(
      createLinkSigner("another secret, just as long as it").unseal("document-request-link", sealed),
    ).toBeNull();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}A`;
    expect(links.unseal("document-request-link", tampered)).toBeNull();
    expect(links.unseal("document-request-link", "v1.short")).toBeNull();
    expect(links.unseal("document-request-link", "not sealed")).toBeNull();
  });

  it("cannot be made without the secret", () => {
    expect(() => createLinkSigner("")).toThrow(/app secret/);
  });
});
