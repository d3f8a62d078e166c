import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import ContactsOutlined from "@mui/icons-material/ContactsOutlined";
import { CONTACT_KIND_LABELS } from "../../../../shared/domain/contacts.ts";
import type { PermitContact } from "../../../../shared/schemas/contacts.ts";
import { DetailCard, EmptyState } from "../../../components/detail-card.tsx";

/**
 * A permit's or bond's 'Contacts' card (issue 27): each listed contact's name, organization and
 * kind; staff also get the e-mail (a mailto link) and phone. A client-user's contacts come without
 * them (the API sends null), so the card shows none.
 */
export function PermitContactsCard({ contacts, canEdit }: { contacts: PermitContact[]; canEdit: boolean }) {
  return (
    <DetailCard title="Contacts" icon={<ContactsOutlined />}>
      {contacts.length === 0 ? (
        <EmptyState>{canEdit ? "No contacts listed. Add them with Edit." : "No contacts listed."}</EmptyState>
      ) : (
        <Box
          component="ul"
          aria-label="Contacts"
          sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 1.5 }}
        >
          {contacts.map((c) => (
            <Box
              component="li"
              key={c.id}
              sx={{
                minWidth: 0,
                pb: 1.5,
                borderBottom: 1,
                borderColor: "divider",
                "&:last-of-type": { pb: 0, border: 0 },
              }}
            >
              <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>
                {c.name}
              </Typography>
              <Typography
                variant="caption"
                color="text.secondary"
                sx={{ display: "block", overflowWrap: "anywhere" }}
              >
                {[c.organization, CONTACT_KIND_LABELS[c.kind]].filter(Boolean).join(" · ")}
              </Typography>
              {c.email ? (
                <Link
                  href={`mailto:${c.email}`}
                  variant="body2"
                  underline="hover"
                  sx={{ display: "inline-block", overflowWrap: "anywhere", minHeight: 24, mt: 0.25 }}
                >
                  {c.email}
                </Link>
              ) : null}
              {c.phone ? (
                <Typography variant="body2" sx={{ mt: 0.25 }}>
                  <Link href={`tel:${c.phone.replace(/[^\d+]/g, "")}`} underline="hover" color="inherit">
                    {c.phone}
                  </Link>
                </Typography>
              ) : null}
            </Box>
          ))}
        </Box>
      )}
    </DetailCard>
  );
}
