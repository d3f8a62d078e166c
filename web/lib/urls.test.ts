import { describe, expect, it } from "vitest";
import { phoneHref, websiteHref } from "./urls.ts";

describe("websiteHref", () => {
  it("adds https:// to a bare host and keeps http(s) links", () => {
    expect(websiteHref("acme.example.com")).toBe("https://acme.example.com/");
    expect(websiteHref(" https://acme.example.com/about ")).toBe("https://acme.example.com/about");
    expect(websiteHref("http://acme.example.com")).toBe("http://acme.example.com/");
  });

  it("refuses other schemes and empty values", () => {
    expect(websiteHref("javascript:alert(1)")).toBeNull();
    expect(websiteHref("data:text/html,hi")).toBeNull();
    expect(websiteHref("")).toBeNull();
    expect(websiteHref(null)).toBeNull();
  });
});

describe("phoneHref", () => {
  it("keeps digits and a leading plus", () => {
    expect(phoneHref("(303) 555-0142")).toBe("tel:3035550142");
    expect(phoneHref("+1 303 555 0142")).toBe("tel:+13035550142");
  });
});
