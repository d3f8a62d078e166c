import type { Page } from "playwright-core";
import { expect } from "vitest";
import { BOND_STATUS_LABELS, COLLATERAL_FORM_LABELS, LEDGER_KIND_LABELS } from "../../shared/domain/bonds.ts";
import { EXPIRY_RULE_LABELS, TERM_KIND_LABELS } from "../../shared/domain/lifecycle.ts";
import { PERMIT_GROUPING_LABELS, PERMIT_TILE_LABELS } from "../../shared/domain/permit-list.ts";
import { ROLE_LABELS } from "../../shared/domain/roles.ts";
import { RECORD_TYPE_LABELS } from "../../shared/domain/statuses.ts";
import { DELIVERY_STATUS_LABELS } from "../../shared/schemas/reminders.ts";
import { WEBHOOK_EVENT_LABELS, WEBHOOK_FORMAT_LABELS } from "../../shared/domain/webhooks.ts";

/**
 * The stored codes a screen must never show as they are (issue 25: "fixed -> after_inspection",
 * "bond", "reduced"): every code of the label tables whose label differs from it.
 */
const CODES = [
  BOND_STATUS_LABELS,
  COLLATERAL_FORM_LABELS,
  LEDGER_KIND_LABELS,
  EXPIRY_RULE_LABELS,
  TERM_KIND_LABELS,
  PERMIT_GROUPING_LABELS,
  PERMIT_TILE_LABELS,
  ROLE_LABELS,
  RECORD_TYPE_LABELS,
  DELIVERY_STATUS_LABELS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_FORMAT_LABELS,
].flatMap((labels) =>
  Object.entries(labels as Record<string, string>)
    .filter(([code, label]) => code !== label)
    .map(([code]) => code),
);

/**
 * What a person reads on the screen is in words (issue 25): no ISO date ("2026-11-25"), no
 * snake_case code, and no text that is a stored code on its own ("bond", "reduced",
 * "company-admin"), anywhere in the visible text outside form fields and <code> (where a screen names
 * what a person types, such as an import's column names). Returns the offending texts.
 */
export async function unreadableTexts(page: Page): Promise<string[]> {
  return page.evaluate((codes) => {
    const skip =
      "input, textarea, select, option, script, style, code, pre, [aria-hidden='true'], [data-raw-text]";
    const found = new Set<string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const codeSet = new Set(codes);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      const parent = node.parentElement;
      if (!text || !parent || parent.closest(skip)) continue;
      if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      if (
        /\b\d{4}-\d{2}-\d{2}\b/.test(text) ||
        /\b[a-z0-9]+_[a-z0-9_]+\b/.test(text) ||
        codeSet.has(text) ||
        /(^|\s)(->|→)\s*[a-z_]+$/.test(text)
      )
        found.add(text.slice(0, 120));
    }
    return [...found];
  }, CODES);
}

export async function expectReadableText(page: Page, screen: string) {
  const found = await unreadableTexts(page);
  expect(found, `${screen}: raw codes or ISO dates on the screen: ${JSON.stringify(found)}`).toEqual([]);
}
