// The companies feature's public face: what other features may use.
export { companiesQueryKey, useCompanies } from "./api/get-companies.ts";
export { CompanyField, CompanySelect, type CompanySelectProps } from "./components/company-select.tsx";
