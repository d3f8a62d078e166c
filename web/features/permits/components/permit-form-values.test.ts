import { describe, expect, it } from "vitest";
import type { ResolverOptions } from "react-hook-form";
import {
  COMPANY_MISSING_MESSAGE,
  PROJECT_REQUIRED_MESSAGE,
  type PermitFormValues,
} from "../../../../shared/schemas/permits.ts";
import { EMPTY_PERMIT_VALUES, hasPermitFieldErrors, permitFormResolver } from "./permit-form-values.ts";

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<PermitFormValues>;
const valid: PermitFormValues = {
  ...EMPTY_PERMIT_VALUES,
  permit_number: "P-1",
  permit_name: "Grading",
  agency: "City",
  expiration_date: "2026-06-30",
};

describe("permit form validation", () => {
  it("asks a super-admin for the company and, when the company has projects, for the project", async () => {
    const result = await permitFormResolver(valid, { needsCompany: true, hasProjects: true }, options);
    expect(result.errors.company_id?.message).toBe(COMPANY_MISSING_MESSAGE);
    expect(result.errors.project_id?.message).toBe(PROJECT_REQUIRED_MESSAGE);
  });

  it("passes a complete permit of a company without projects", async () => {
    const result = await permitFormResolver(valid, { needsCompany: false, hasProjects: false }, options);
    expect(result.errors).toEqual({});
  });

  it("shows a server VALIDATION answer on the form's own fields only", () => {
    expect(hasPermitFieldErrors({ fields: { permit_number: "Taken" } })).toBe(true);
    expect(hasPermitFieldErrors({ fields: { something_else: "?" } })).toBe(false);
    expect(hasPermitFieldErrors(new Error("boom"))).toBe(false);
  });
});
