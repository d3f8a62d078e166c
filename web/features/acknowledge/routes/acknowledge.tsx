import type { ReactNode } from "react";
import { Link as RouterLink, useParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import CheckCircle from "@mui/icons-material/CheckCircle";
import { PRODUCT_NAME } from "../../../../shared/domain/constants.ts";
import type { AcknowledgeLink } from "../../../../shared/schemas/lifecycle.ts";
import productLogoUrl from "../../../assets/permitrack-logo.svg";
import { errorMessage } from "../../../lib/api.ts";
import { formatDay, formatDayOf } from "../../../lib/format.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import { paths } from "../../../lib/paths.ts";
import { useAcknowledgeByLink, useAcknowledgeLink } from "../api/acknowledge-link.ts";

function Card({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        flex: 1,
        display: "flex",
        alignItems: { xs: "flex-start", sm: "center" },
        justifyContent: "center",
      }}
    >
      <Paper
        variant="outlined"
        sx={{ width: "100%", maxWidth: 480, p: { xs: 3, sm: 4 }, mt: { xs: 2, sm: 0 } }}
      >
        <Box sx={{ display: "flex", justifyContent: "center", mb: 3 }}>
          <Box component="img" src={productLogoUrl} alt={PRODUCT_NAME} sx={{ height: 48, width: "auto" }} />
        </Box>
        {children}
      </Paper>
    </Box>
  );
}

/** The permit the link is about: name, number, company and its dates. */
function PermitSummary({ link }: { link: AcknowledgeLink }) {
  const rows = [
    ["Permit", link.permit_name],
    ["Permit #", link.permit_number],
    ["Company", link.company_name],
    ["Renew by", formatDay(link.renew_by_date)],
    ["Expires", formatDay(link.expiration_date)],
  ].filter((r): r is [string, string] => !!r[1]);
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        mb: 3,
        p: 2,
        borderRadius: 2,
        bgcolor: "action.hover",
        display: "grid",
        gridTemplateColumns: "auto minmax(0, 1fr)",
        columnGap: 2,
        rowGap: 0.75,
      }}
    >
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: "contents" }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600, overflowWrap: "anywhere" }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

const signInLink = (
  <Typography variant="body2" sx={{ mt: 3, textAlign: "center" }}>
    <Link component={RouterLink} to={paths.login}>
      Sign in to {PRODUCT_NAME}
    </Link>
  </Typography>
);

/**
 * /acknowledge/:token, outside the session guard: the Acknowledge link of a reminder e-mail. The
 * page shows what the link is about and acknowledges only when the button is pressed (never on
 * load: mail scanners open links); an invalid or outdated link shows the server's message.
 */
export default function AcknowledgePage() {
  usePageTitle("Acknowledge Reminder");
  const { token = "" } = useParams();
  const link = useAcknowledgeLink(token);
  const acknowledge = useAcknowledgeByLink(token);

  if (link.isPending) {
    return (
      <Card>
        <Box
          role="status"
          sx={{ display: "flex", alignItems: "center", justifyContent: "center", gap: 1.5, py: 2 }}
        >
          <CircularProgress size={22} aria-hidden />
          <Typography>Loading...</Typography>
        </Box>
      </Card>
    );
  }
  if (link.isError) {
    return (
      <Card>
        <Typography variant="h1" sx={{ fontSize: "1.5rem", mb: 2, textAlign: "center" }}>
          Acknowledge Reminder
        </Typography>
        <Alert severity="warning">{errorMessage(link.error)}</Alert>
        {signInLink}
      </Card>
    );
  }
  const data = link.data;
  if (data.acknowledged) {
    const justNow = acknowledge.isSuccess;
    return (
      <Card>
        <Box sx={{ textAlign: "center", mb: 3 }}>
          <CheckCircle sx={{ fontSize: 56, color: "success.main" }} aria-hidden />
          <Typography variant="h1" sx={{ fontSize: "1.5rem", mt: 1 }}>
            {justNow ? "Thank you: acknowledged" : "Already acknowledged"}
          </Typography>
          <Typography role="status" sx={{ mt: 1 }}>
            Acknowledged by {data.acknowledged.by} on {formatDayOf(data.acknowledged.at)}.
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            The reminders for this permit&apos;s current term have stopped for everyone. They start again if
            the permit is renewed or extended.
          </Typography>
        </Box>
        <PermitSummary link={data} />
        {signInLink}
      </Card>
    );
  }
  return (
    <Card>
      <Typography variant="h1" sx={{ fontSize: "1.5rem", mb: 1, textAlign: "center" }}>
        Acknowledge Reminder
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3, textAlign: "center" }}>
        {data.recipient_name}, you received a reminder about this permit.
      </Typography>
      <PermitSummary link={data} />
      <Typography variant="body2" sx={{ mb: 2 }}>
        Acknowledging tells your team you are on it: the routine reminders for this term stop for everyone,
        and your name is shown on the permit.
      </Typography>
      {acknowledge.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(acknowledge.error)}
        </Alert>
      ) : null}
      <Button
        variant="contained"
        size="large"
        fullWidth
        disabled={acknowledge.isPending}
        onClick={() => acknowledge.mutate()}
      >
        {acknowledge.isPending ? "Acknowledging..." : "Acknowledge"}
      </Button>
      {signInLink}
    </Card>
  );
}
