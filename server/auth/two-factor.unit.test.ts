import { describe, expect, it } from "vitest";
import { generateRecoveryCodes } from "./two-factor-codes.ts";
import { manualKeyOfSecret, secretOfManualKey } from "./two-factor.ts";

describe("two-factor helpers", () => {
  it("writes a secret as the base32 key an authenticator app takes (RFC 4648 vectors)", () => {
    expect(manualKeyOfSecret("f")).toBe("MY");
    expect(manualKeyOfSecret("foobar")).toBe("MZXW6YTBOI");
    expect(manualKeyOfSecret("0123456789abcdef0123456789abcdef")).toHaveLength(52);
  });

  it("reads a typed key back into its secret: spaces and case ignored; not base32 or not text is refused", () => {
    expect(secretOfManualKey("MZXW6YTBOI")).toBe("foobar");
    expect(secretOfManualKey("mzxw 6ytb oi")).toBe("foobar");
    const secret = "0123456789abcdef0123456789abcdef";
    expect(secretOfManualKey(manualKeyOfSecret(secret).replace(/(.{4})/g, "$1 "))).toBe(secret);
    expect(secretOfManualKey("not base32!")).toBeNull();
    expect(secretOfManualKey("")).toBeNull();
    expect(secretOfManualKey("7777")).toBeNull(); // 0xFF bytes: not UTF-8 text
  });

  it("makes ten distinct recovery codes without look-alike characters", () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/);
  });
});
