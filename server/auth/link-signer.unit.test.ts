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
    expect(createLinkSigner("another secret, just as long as it").verify("a", "payload", signature)).toBe(false);
  });

  it("cannot be made without the secret", () => {
    expect(() => createLinkSigner("")).toThrow(/app secret/);
  });
});
