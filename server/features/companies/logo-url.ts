/** Public URL of a company's logo; changes whenever the logo does, so browsers may cache it. */
export function companyLogoUrl(company: { id: string; logoKey: string | null }): string | null {
  if (!company.logoKey) return null;
  return `/api/companies/${company.id}/logo?v=${company.logoKey.split("/").pop()!.slice(0, 8)}`;
}
