import { describe, expect, it } from "vitest";
import { manualKeyOf, normalizeRecoveryCode, normalizeTotpCode } from "./two-factor.ts";
import { VerifyCodeSchema } from "../schemas/auth.ts";

describe("two-factor code formats", () => {
  it("reads recovery codes however they were typed", () => {
    expect(normalizeRecoveryCode("k7m2p-x9qrt")).toBe("k7m2p-x9qrt");
    expect(normalizeRecoveryCode(" K7M2P X9QRT ")).toBe("k7m2p-x9qrt");
    expect(normalizeRecoveryCode("k7m2px9qrt")).toBe("k7m2p-x9qrt");
  });

  it("reads authenticator codes shown in two groups", () => {
    expect(normalizeTotpCode("123 456")).toBe("123456");
    expect(normalizeTotpCode("123-456")).toBe("123456");
  });

  it("takes the manual key from an otpauth URI", () => {
    expect(manualKeyOf("otpauth://totp/Permitrack:a%40b.c?secret=JBSWY3DPEHPK3PXP&issuer=Permitrack")).toBe(
      "JBSWY3DPEHPK3PXP",
    );
  });

  it("validates the code step's input by method, with field messages", () => {
    expect(VerifyCodeSchema.safeParse({ code: "123 456" }).success).toBe(true);
    expect(VerifyCodeSchema.safeParse({ code: "12345" }).error?.issues[0]?.message).toBe(
      "Enter the 6-digit code from your authenticator app.",
    );
    expect(VerifyCodeSchema.safeParse({ code: "K7M2PX9QRT", method: "recovery" }).success).toBe(true);
    expect(VerifyCodeSchema.safeParse({ code: "123456", method: "recovery" }).success).toBe(false);
    expect(VerifyCodeSchema.safeParse({ code: "", method: "totp" }).error?.issues[0]?.message).toBe(
      "Authentication Code is required",
    );
  });
});
