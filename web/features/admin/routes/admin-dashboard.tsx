import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import ApartmentIcon from "@mui/icons-material/ApartmentOutlined";
import NotificationsIcon from "@mui/icons-material/NotificationsActiveOutlined";
import PeopleIcon from "@mui/icons-material/PeopleAltOutlined";
import WorkIcon from "@mui/icons-material/WorkOutlineOutlined";
import type { Capability } from "../../../../shared/domain/permissions.ts";
import { GettingStarted, hasStepsLeft } from "../../../components/getting-started.tsx";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { paths } from "../../../lib/paths.ts";
import { useMe } from "../../../lib/session.tsx";
import { useScopeContents } from "../../permits/index.ts";
import { BackupCard } from "../components/backup-card.tsx";

interface AdminLink {
  label: string;
  description: string;
  to: string;
  capability: Capability;
  icon: ReactNode;
}

// Spec section 2: Manage Companies (super-admin only), Manage Users, Manage Projects, Notification Settings.
const LINKS: AdminLink[] = [
  {
    label: "Manage Companies",
    description: "Companies, their contact details, time zones and logos.",
    to: paths.companies,
    capability: "companies.manage",
    icon: <ApartmentIcon />,
  },
  {
    label: "Manage Users",
    description: "Accounts, roles, client filters, passwords; disable or remove access.",
    to: paths.users,
    capability: "users.manage",
    icon: <PeopleIcon />,
  },
  {
    label: "Manage Projects",
    description: "Projects, their clients and status, with their permit counts.",
    to: paths.projects,
    capability: "projects.manage",
    icon: <WorkIcon />,
  },
  {
    label: "Notification Settings",
    description: "Reminder e-mails 30, 7 and 1 day before expiry, and who receives them.",
    to: paths.notificationSettings,
    capability: "notifications.manage",
    icon: <NotificationsIcon />,
  },
];

/**
 * Admin Dashboard (/admin). Company-users and client-users get 'Access denied.'; without a
 * user 'Not authenticated' (the session guard normally redirects before that can show).
 */
export default function AdminDashboardPage() {
  const me = useMe();
  const capabilities = me.data?.capabilities ?? [];
  return (
    <>
      <PageHeader title="Admin Dashboard" />
      {me.isPending ? (
        <PageSpinner />
      ) : !me.data ? (
        <Alert severity="error">Not authenticated</Alert>
      ) : !capabilities.includes("admin.dashboard") ? (
        <AccessDenied />
      ) : (
        <>
          <AdminGettingStarted />
          <Box
            component="nav"
            aria-label="Administration"
            sx={{
              display: "grid",
              gap: 2,
              gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(4, 1fr)" },
            }}
          >
            {LINKS.filter((link) => capabilities.includes(link.capability)).map((link) => (
              <Card key={link.to} variant="outlined">
                <CardActionArea component={RouterLink} to={link.to} sx={{ height: "100%" }}>
                  <CardContent sx={{ display: "flex", gap: 2, alignItems: "flex-start" }}>
                    <Box
                      sx={{
                        color: "primary.main",
                        bgcolor: "action.hover",
                        borderRadius: 2,
                        p: 1.25,
                        display: "flex",
                        "& svg": { fontSize: 28 },
                      }}
                      aria-hidden
                    >
                      {link.icon}
                    </Box>
                    <Box>
                      <Typography variant="h3" component="span" sx={{ fontSize: "1.1rem", display: "block" }}>
                        {link.label}
                      </Typography>
                      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                        {link.description}
                      </Typography>
                    </Box>
                  </CardContent>
                </CardActionArea>
              </Card>
            ))}
          </Box>
          {capabilities.includes("system.backups") ? (
            <Box sx={{ mt: 3, maxWidth: { lg: "50%" } }}>
              <BackupCard />
            </Box>
          ) : null}
        </>
      )}
    </>
  );
}

/** Issue 25: until the platform (or company) has a company, a client and project, and permits, the steps. */
function AdminGettingStarted() {
  const steps = useScopeContents().data?.getting_started;
  return hasStepsLeft(steps) ? <GettingStarted steps={steps!} sx={{ mb: 3 }} /> : null;
}
