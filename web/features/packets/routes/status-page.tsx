import { useState, type ReactNode } from "react";
import { useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import type { ComplianceReport } from "../../../../shared/schemas/compliance.ts";

// /status/:token (issue 30), outside the session guard: a client's, owner's or lender's read-only
// view of a project's (or client's) permits and bonds, as of now, with the compliance packet's
// download. Small: no dialogs, no form library; cards that read on a phone.

type Page =
  | { kind: "open"; report: ComplianceReport; expires_at: string }
  | { kind: "gone"; state: "expired" | "revoked"; company: string };

const base = (token: string) => `/api/status-links/${encodeURIComponent(token)}`;

async function readStatus(token: string, signal: AbortSignal): Promise<Page> {
  const response = await fetch(base(token), { headers: { accept: "application/json" }, signal });
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (response.ok) return { kind: "open", ...(body as { report: ComplianceReport; expires_at: string }) };
  if (response.status === 410) {
    const gone = body as { state: "expired" | "revoked"; company: { name: string } };
    return { kind: "gone", state: gone.state, company: gone.company.name };
  }
  const message =
    response.status === 404
      ? "This link is not valid. Check that the whole address was opened."
      : ((body?.message as string | undefined) ?? "The status could not be loaded.");
  throw new ApiError(response.status, `HTTP_${response.status}`, message);
}

const day = (iso: string | null) =>
  iso
    ? new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" })
    : "—";
const money = (amount: string | null, currency: string | null) => {
  if (!amount) return "—";
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: currency ?? "USD" }).format(
      Number(amount),
    );
  } catch {
    return amount;
  }
};
const daysLeft = (d: number | null) => (d === null ? "—" : d < 0 ? `${-d} days ago` : `${d} days`);

function Frame({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ flex: 1, display: "flex", justifyContent: "center", alignItems: "flex-start" }}>
      <Paper
        variant="outlined"
        sx={{ width: "100%", maxWidth: 960, p: { xs: 2, sm: 4 }, mt: { xs: 0, sm: 2 }, borderRadius: 3 }}
      >
        {children}
      </Paper>
    </Box>
  );
}

function Flags({ flags }: { flags: string[] }) {
  if (!flags.length) return null;
  const alert = flags.some((f) => f === "Expired" || f.includes("overdue"));
  return (
    <Typography
      component="p"
      sx={{ fontWeight: 650, color: alert ? "error.main" : "warning.dark", fontSize: "0.875rem" }}
    >
      {alert ? "⚠ " : ""}
      {flags.join(" · ")}
    </Typography>
  );
}

function Item({
  title,
  subtitle,
  fields,
  flags,
}: {
  title: string;
  subtitle: string;
  fields: [string, string][];
  flags: string[];
}) {
  return (
    <Box
      component="li"
      sx={{
        listStyle: "none",
        border: 1,
        borderColor: flags.length ? "error.light" : "divider",
        borderRadius: 2,
        p: 1.5,
      }}
    >
      <Typography sx={{ fontWeight: 650, overflowWrap: "anywhere" }}>{title}</Typography>
      <Typography color="text.secondary" sx={{ fontSize: "0.875rem", mb: 0.75, overflowWrap: "anywhere" }}>
        {subtitle}
      </Typography>
      <Flags flags={flags} />
      <Box
        component="dl"
        sx={{
          display: "grid",
          gridTemplateColumns: "auto 1fr",
          columnGap: 1.5,
          rowGap: 0.25,
          m: 0,
          mt: 0.5,
          fontSize: "0.875rem",
        }}
      >
        {fields.map(([k, v]) => (
          <Box key={k} sx={{ display: "contents" }}>
            <Box component="dt" sx={{ color: "text.secondary" }}>
              {k}
            </Box>
            <Box component="dd" sx={{ m: 0, overflowWrap: "anywhere" }}>
              {v}
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

function Report({ token, report }: { token: string; report: ComplianceReport }) {
  const [logoFailed, setLogoFailed] = useState(false);
  const s = report.summary;
  const tiles: [string, number][] = [
    ["Permits and bonds", s.total],
    ["Expired", s.expired],
    ["Expiring in 30 days", s.expiring_30_days],
    ["Renewal due", s.renewal_due],
    ["Open document requests", s.open_requests],
    ["Overdue tasks", s.overdue_tasks],
  ];
  const list = {
    display: "grid",
    gap: 1,
    p: 0,
    m: 0,
    gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" },
  } as const;
  return (
    <Frame>
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1.5,
          pb: 2,
          mb: 2,
          borderBottom: 1,
          borderColor: "divider",
        }}
      >
        {report.company.has_logo && !logoFailed ? (
          <Box
            component="img"
            src={`${base(token)}/logo`}
            alt=""
            onError={() => setLogoFailed(true)}
            sx={{ height: 40, maxWidth: 120, objectFit: "contain" }}
          />
        ) : null}
        <Typography sx={{ fontWeight: 650, fontSize: "1.05rem" }}>{report.company.name}</Typography>
      </Box>
      <Typography variant="h1" sx={{ fontSize: { xs: "1.4rem", sm: "1.75rem" }, fontWeight: 700, mb: 0.5 }}>
        {report.project ? report.project.name : report.client?.name} — compliance status
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {report.project && report.client ? `Client: ${report.client.name} · ` : ""}As of {report.as_of_text}
      </Typography>
      <Button variant="contained" component="a" href={`${base(token)}/packet.pdf`} download sx={{ mb: 2.5 }}>
        Download Compliance Packet (PDF)
      </Button>
      <Typography variant="h2" sx={{ fontSize: "1.15rem", fontWeight: 650, mb: 1 }}>
        Summary
      </Typography>
      <Box
        component="ul"
        aria-label="Summary"
        sx={{
          display: "grid",
          gap: 1,
          p: 0,
          m: 0,
          mb: 1,
          gridTemplateColumns: { xs: "1fr 1fr", sm: "repeat(3, 1fr)", md: "repeat(6, 1fr)" },
        }}
      >
        {tiles.map(([label, n]) => {
          const alert = n > 0 && (label === "Expired" || label === "Overdue tasks");
          return (
            <Box
              component="li"
              key={label}
              sx={{
                listStyle: "none",
                border: alert ? 2 : 1,
                borderColor: alert ? "error.main" : "divider",
                borderRadius: 2,
                p: 1.25,
              }}
            >
              <Typography
                sx={{ fontSize: "1.4rem", fontWeight: 700, color: alert ? "error.main" : "text.primary" }}
              >
                {alert ? "⚠ " : ""}
                {n}
              </Typography>
              <Typography color="text.secondary" sx={{ fontSize: "0.8rem" }}>
                {label}
              </Typography>
            </Box>
          );
        })}
      </Box>
      <Typography color="text.secondary" sx={{ fontSize: "0.875rem", mb: 2.5 }}>
        By status: {s.by_status.map((b) => `${b.status} ${b.count}`).join(" · ") || "none"}
      </Typography>
      <Typography variant="h2" sx={{ fontSize: "1.15rem", fontWeight: 650, mb: 1 }}>
        Permits ({report.permits.length})
      </Typography>
      <Box component="ul" aria-label="Permits" sx={{ ...list, mb: 2.5 }}>
        {report.permits.map((p, i) => (
          <Item
            key={`${p.number}-${i}`}
            title={`${p.number} · ${p.name}`}
            subtitle={
              [p.agency, p.project && !report.project ? p.project : null].filter(Boolean).join(" · ") || "—"
            }
            flags={p.flags}
            fields={[
              ["Status", p.status],
              ["Issued", day(p.issued)],
              ["Expires", day(p.expires)],
              ["Days left", daysLeft(p.days_left)],
              ["Responsible", p.responsible ?? "—"],
            ]}
          />
        ))}
      </Box>
      <Typography variant="h2" sx={{ fontSize: "1.15rem", fontWeight: 650, mb: 1 }}>
        Bonds ({report.bonds.length})
      </Typography>
      <Box component="ul" aria-label="Bonds" sx={list}>
        {report.bonds.map((b, i) => (
          <Item
            key={`${b.number}-${i}`}
            title={`${b.number} · ${b.surety ?? "—"}`}
            subtitle={
              [b.type, b.project && !report.project ? b.project : null].filter(Boolean).join(" · ") || "—"
            }
            flags={b.flags}
            fields={[
              ["Status", b.status],
              ["Current amount", money(b.current_amount, report.currency)],
              ["Expires", day(b.expires)],
              ["Days left", daysLeft(b.days_left)],
            ]}
          />
        ))}
      </Box>
    </Frame>
  );
}

export default function StatusPage() {
  const { token = "" } = useParams();
  const page = useQuery({
    queryKey: ["status-link", token],
    queryFn: ({ signal }) => readStatus(token, signal),
    retry: false,
    refetchOnWindowFocus: false,
  });
  usePageTitle(
    page.data?.kind === "open" ? `Compliance Status · ${page.data.report.company.name}` : "Compliance Status",
  );
  if (page.isPending)
    return (
      <Frame>
        <Box
          role="status"
          sx={{ display: "flex", alignItems: "center", justifyContent: "center", gap: 1.5, py: 2 }}
        >
          <CircularProgress size={22} aria-hidden />
          <Typography>Loading...</Typography>
        </Box>
      </Frame>
    );
  if (page.isError)
    return (
      <Frame>
        <Typography variant="h1" sx={{ fontSize: "1.4rem", fontWeight: 700, mb: 1.5 }}>
          Compliance Status
        </Typography>
        <Alert severity="warning">{errorMessage(page.error)}</Alert>
      </Frame>
    );
  if (page.data.kind === "gone")
    return (
      <Frame>
        <Typography variant="h1" sx={{ fontSize: "1.4rem", fontWeight: 700, mb: 1.5 }}>
          {page.data.state === "expired" ? "This status link has expired" : "This status link was revoked"}
        </Typography>
        <Typography color="text.secondary">
          Ask {page.data.company} for a new link if you still need their compliance status.
        </Typography>
      </Frame>
    );
  return <Report token={token} report={page.data.report} />;
}
