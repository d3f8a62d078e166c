import { useCallback } from "react";
import { DEFAULT_CURRENCY } from "../../../../shared/domain/bonds.ts";
import { useCompanies } from "../../companies/index.ts";

/**
 * The currency (ISO 4217) of a company's amounts, for the sureties' limits: the sureties answer
 * carries none, the companies lookup does (admins, the only ones who see limits, may read it).
 */
export function useCompanyCurrency(enabled = true): (companyId: string | null | undefined) => string {
  const companies = useCompanies({ enabled });
  const list = companies.data?.companies;
  return useCallback(
    (companyId) => list?.find((c) => c.id === companyId)?.currency ?? DEFAULT_CURRENCY,
    [list],
  );
}
