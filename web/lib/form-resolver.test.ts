import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { sameNames } from "./form-errors.ts";
import { formResolver } from "./form-resolver.ts";

const Schema = z.object({ name: z.string().trim().min(1, { message: "Name is required" }) });
const options = { fields: {}, shouldUseNativeValidation: false };

describe("formResolver", () => {
  it("checks with the schema and hands on its output", async () => {
    const resolver = formResolver(Schema);
    await expect(resolver({ name: "  a " }, undefined, options)).resolves.toEqual({
      values: { name: "a" },
      errors: {},
    });
    const refused = await resolver({ name: " " }, undefined, options);
    expect(refused.errors.name?.message).toBe("Name is required");
  });

  it("fetches a schema given as a function once, on first use, and delegates to it", async () => {
    const load = vi.fn(async () => Schema);
    const resolver = formResolver(load);
    expect(load).not.toHaveBeenCalled();
    await expect(resolver({ name: "a" }, undefined, options)).resolves.toMatchObject({ errors: {} });
    resolver.preload();
    await resolver({ name: "b" }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("retries a failed download on the next use", async () => {
    const load = vi.fn<() => Promise<typeof Schema>>().mockRejectedValueOnce(new Error("offline"));
    load.mockResolvedValue(Schema);
    const resolver = formResolver(load);
    await expect(resolver({ name: "a" }, undefined, options)).rejects.toThrow("offline");
    await expect(resolver({ name: "a" }, undefined, options)).resolves.toMatchObject({ errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("with a body mapping, checks the body and puts each message on the field typed in", async () => {
    type Values = { label: string };
    const resolver = formResolver<Values>(Schema, {
      toBody: (v) => ({ name: v.label }),
      fieldOf: (f) => (f === "name" ? "label" : null),
    });
    // The raw values go on: the API gets the body made of them.
    await expect(resolver({ label: " a " }, undefined, options)).resolves.toEqual({
      values: { label: " a " },
      errors: {},
    });
    const refused = await resolver({ label: "" }, undefined, options);
    expect(refused.errors.label?.message).toBe("Name is required");
    // An issue of no field of this form still refuses.
    const unmapped = formResolver<Values>(Schema, { toBody: () => ({}), fieldOf: sameNames<Values>([]) });
    expect((await unmapped({ label: "a" }, undefined, options)).errors.root).toBeDefined();
  });
});
