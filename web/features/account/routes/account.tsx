import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useCurrentUser } from "../../../lib/session.tsx";
import { TwoFactorSection } from "../components/two-factor-section.tsx";

/** The signed-in user's account (/account, every role): who they are, and their two-factor sign-in. */
export default function AccountPage() {
  const me = useCurrentUser();
  const name = `${me.firstName} ${me.lastName}`.trim() || me.email;
  const rows: [string, string][] = [
    ["Name", name],
    ["Email", me.email],
    ["Role", ROLE_LABELS[me.role]],
    ["Company", me.company?.name ?? "No Company"],
  ];
  return (
    <Box sx={{ maxWidth: 880, mx: "auto" }}>
      <PageHeader title="Account" />
      <Paper variant="outlined" component="section" aria-label="Profile" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: "grid",
            gridTemplateColumns: { xs: "1fr", sm: "max-content 1fr" },
            columnGap: 4,
            rowGap: { xs: 0.25, sm: 1.25 },
            "& dt": { color: "text.secondary", mt: { xs: 1, sm: 0 } },
            "& dd": { m: 0, fontWeight: 500, overflowWrap: "anywhere" },
          }}
        >
          {rows.map(([label, value]) => (
            <Box key={label} sx={{ display: "contents" }}>
              <Typography component="dt">{label}</Typography>
              <Typography component="dd">{value}</Typography>
            </Box>
          ))}
        </Box>
      </Paper>
      <TwoFactorSection me={me} />
    </Box>
  );
}
