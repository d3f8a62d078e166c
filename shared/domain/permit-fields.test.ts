import { describe, expect, it } from "vitest";
import { permitFieldLabel } from "./permit-fields.ts";

describe("permitFieldLabel", () => {
  it("names permit columns as the form does, and anything else by its own words", () => {
    expect(permitFieldLabel("permit_application_date")).toBe("Application Date");
    expect(permitFieldLabel("aka")).toBe("AKA");
    expect(permitFieldLabel("internal comment")).toBe("Internal Comment");
    expect(permitFieldLabel("attachment")).toBe("Attachment");
  });
});
