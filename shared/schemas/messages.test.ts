import { describe, expect, it } from "vitest";
import { z } from "zod";
import "./messages.ts";

const firstMessage = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("expected a failure");
  return r.error.issues[0]!.message;
};

describe("field messages where a schema names none", () => {
  it("says what is missing or of the wrong kind", () => {
    expect(firstMessage(z.object({ name: z.string() }), {})).toBe("Required");
    expect(firstMessage(z.object({ name: z.string() }), { name: 4 })).toBe("Must be a text");
    expect(firstMessage(z.number(), "4")).toBe("Must be a number");
    expect(firstMessage(z.boolean(), "yes")).toBe("Must be true or false");
    expect(firstMessage(z.array(z.string()), "a")).toBe("Must be a list");
  });

  it("states limits in characters, items and values", () => {
    expect(firstMessage(z.string().min(1), "")).toBe("Must not be empty");
    expect(firstMessage(z.string().min(3), "ab")).toBe("Must be at least 3 characters");
    expect(firstMessage(z.string().max(5), "abcdef")).toBe("Must be at most 5 characters");
    expect(firstMessage(z.array(z.string()).max(2), ["a", "b", "c"])).toBe("Must have at most 2 items");
    expect(firstMessage(z.number().int().min(1).max(90), 91)).toBe("Must be at most 90");
    expect(firstMessage(z.number().positive(), 0)).toBe("Must be more than 0");
  });

  it("names the choices and formats", () => {
    expect(firstMessage(z.enum(["permit", "bond"]), "car")).toBe("Must be one of: permit, bond");
    expect(firstMessage(z.literal("yes"), "no")).toBe("Must be yes");
    expect(firstMessage(z.email(), "nobody")).toBe("Must be a valid e-mail address");
    expect(firstMessage(z.uuid(), "12")).toBe("Must be a valid id");
    expect(firstMessage(z.strictObject({ a: z.string() }), { a: "x", b: 1 })).toBe("Unknown field: b");
  });

  it("never overrides a schema's own message", () => {
    const name = z.string({ message: "Project Name is required" }).min(1, { message: "Project Name is required" });
    expect(firstMessage(name, undefined)).toBe("Project Name is required");
    expect(firstMessage(name, "")).toBe("Project Name is required");
  });
});
