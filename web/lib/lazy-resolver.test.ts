import { describe, expect, it, vi } from "vitest";
import type { Resolver } from "react-hook-form";
import { lazyResolver } from "./lazy-resolver.ts";

type Values = { name: string };
const okResolver: Resolver<Values> = async (values) => ({ values, errors: {} });

describe("lazyResolver", () => {
  it("loads the real resolver once and delegates to it", async () => {
    const load = vi.fn(async () => okResolver);
    const resolver = lazyResolver<Values>(load);
    const options = { fields: {}, shouldUseNativeValidation: false };
    await expect(resolver({ name: "a" }, undefined, options)).resolves.toEqual({
      values: { name: "a" },
      errors: {},
    });
    resolver.preload();
    await resolver({ name: "b" }, undefined, options);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("retries a failed download on the next use", async () => {
    const load = vi.fn<() => Promise<Resolver<Values>>>().mockRejectedValueOnce(new Error("offline"));
    load.mockResolvedValue(okResolver);
    const resolver = lazyResolver<Values>(load);
    const options = { fields: {}, shouldUseNativeValidation: false };
    await expect(resolver({ name: "a" }, undefined, options)).rejects.toThrow("offline");
    await expect(resolver({ name: "a" }, undefined, options)).resolves.toMatchObject({ errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
