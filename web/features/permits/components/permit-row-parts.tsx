import { Link as RouterLink, useLocation } from "react-router";
import ChatBubbleOutlineOutlined from "@mui/icons-material/ChatBubbleOutlineOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import DescriptionOutlined from "@mui/icons-material/DescriptionOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import VerifiedUserOutlined from "@mui/icons-material/VerifiedUserOutlined";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import { alpha, useTheme, type Theme } from "@mui/material/styles";
import type { SystemStyleObject } from "@mui/system";

type StyleFn = (theme: Theme) => SystemStyleObject<Theme>;
import { RECORD_TYPE_LABELS } from "../../../../shared/domain/statuses.ts";
import type { PermitGroup, PermitListItem } from "../../../../shared/schemas/permits.ts";
import { fromList } from "../../../lib/back-link.ts";
import { formatDay } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";

/**
 * A page shows 50 permits with several controls each, so rows use plain elements styled once by
 * their container (this sx) instead of a MUI component per link and button: the rows appear
 * noticeably sooner on a slow machine.
 */
export const rowPartsSx: StyleFn = (theme) => ({
  "& .permit-action": {
    font: "inherit",
    fontSize: "0.8125rem",
    fontWeight: 600,
    lineHeight: 1.75,
    padding: "2px 8px",
    border: 0,
    borderRadius: `${theme.shape.borderRadius}px`,
    background: "none",
    cursor: "pointer",
    textDecoration: "none",
    whiteSpace: "nowrap",
    color: theme.palette.mode === "dark" ? theme.palette.primary.light : theme.palette.secondary.main,
    "&:hover": { backgroundColor: theme.palette.action.hover },
    "&:focus-visible": { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 1 },
  },
  "& .permit-action-icon": {
    display: "inline-flex",
    alignItems: "center",
    justifyContent: "center",
    padding: "3px",
    minWidth: 28,
  },
  "& .permit-action-danger": {
    color: theme.palette.mode === "dark" ? theme.palette.error.light : theme.palette.error.dark,
  },
  "& .permit-project-link": {
    color: theme.palette.mode === "dark" ? theme.palette.primary.light : theme.palette.secondary.main,
    fontWeight: 600,
    fontSize: "0.8125rem",
    textDecoration: "none",
    borderRadius: 2,
    "&:hover": { textDecoration: "underline" },
    "&:focus-visible": { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 1 },
  },
  "& .permit-comments": {
    display: "inline-flex",
    alignItems: "center",
    gap: "4px",
    fontSize: "0.8125rem",
    textDecoration: "none",
    color: theme.palette.text.secondary,
  },
  "& .permit-comments-some": {
    color: theme.palette.mode === "dark" ? theme.palette.primary.light : theme.palette.secondary.main,
  },
  "& .permit-dots": { display: "inline-flex", flexWrap: "wrap", gap: "3px", maxWidth: 280 },
  "& .permit-dot": {
    width: 8,
    height: 8,
    borderRadius: "50%",
    backgroundColor: theme.palette.action.disabled,
  },
  // Red only for what has expired, amber for what expires within 30 days (issue 25: every dated
  // permit's red dot read as an alarm); a later date is a quiet dark dot, no date a light one.
  "& .permit-dot-dated": { backgroundColor: theme.palette.text.secondary },
  "& .permit-dot-expiring": { backgroundColor: theme.palette.warning.main },
  "& .permit-dot-expired": { backgroundColor: theme.palette.error.main },
  // A phone's cards: every action a 44 px target.
  [theme.breakpoints.down("md")]: {
    "& .permit-action": { display: "inline-flex", alignItems: "center", minHeight: 44, padding: "0 12px" },
    "& .permit-comments": { minHeight: 44, minWidth: 44, justifyContent: "center" },
  },
});

/** Row highlight (spec section 2): expired pink-red, expiring within 30 days a lighter pink. */
export function urgencyBackground(theme: Theme, urgency: PermitListItem["urgency"]): string | undefined {
  if (urgency === "expired")
    return alpha(theme.palette.error.main, theme.palette.mode === "dark" ? 0.28 : 0.16);
  if (urgency === "expiring")
    return alpha(theme.palette.error.main, theme.palette.mode === "dark" ? 0.12 : 0.06);
  return undefined;
}

/** Row backgrounds by urgency, for a container whose rows carry data-urgency. */
export const urgencyRowsSx =
  (selector: string): StyleFn =>
  (theme) => ({
    [`& ${selector}[data-urgency="expired"]`]: { backgroundColor: urgencyBackground(theme, "expired") },
    [`& ${selector}[data-urgency="expiring"]`]: { backgroundColor: urgencyBackground(theme, "expiring") },
  });

export const URGENCY_LABELS = { expired: "Expired", expiring: "Expiring within 30 days" } as const;

export function TypeIcon({ type }: { type: PermitListItem["record_type"] }) {
  const Icon = type === "bond" ? VerifiedUserOutlined : DescriptionOutlined;
  // titleAccess gives an accessible name and the browser's own tooltip.
  return (
    <Icon
      titleAccess={RECORD_TYPE_LABELS[type]}
      fontSize="small"
      color={type === "bond" ? "secondary" : "action"}
    />
  );
}

export function CommentsLink({ permit }: { permit: PermitListItem }) {
  const label = `${permit.comment_count} ${permit.comment_count === 1 ? "comment" : "comments"}`;
  const location = useLocation();
  return (
    <RouterLink
      to={paths.permit(permit.id)}
      state={fromList(location)}
      aria-label={label}
      title={label}
      className={permit.comment_count ? "permit-comments permit-comments-some" : "permit-comments"}
    >
      <ChatBubbleOutlineOutlined sx={{ fontSize: 18 }} />
      {permit.comment_count}
    </RouterLink>
  );
}

/** Details always; Edit and Delete as the server's `can` allows (spec section 6). */
export function PermitActions({
  permit,
  onDelete,
}: {
  permit: PermitListItem;
  onDelete: (p: PermitListItem) => void;
}) {
  const label = `${permit.permit_number} ${permit.permit_name}`;
  // The record's page returns to this list, filters and all.
  const location = useLocation();
  return (
    <Box sx={{ display: "flex", gap: 0.5, flexWrap: "nowrap" }}>
      <RouterLink
        className="permit-action"
        to={paths.permit(permit.id)}
        state={fromList(location)}
        aria-label={`Details of ${label}`}
      >
        Details
      </RouterLink>
      {/* Edit and Delete as icons named "Edit …" and "Delete …" (their tooltips say Edit and Delete),
          like every admin table's: with the spec's columns the row keeps to one line at 1280 px. */}
      {permit.can.edit ? (
        <RouterLink
          className="permit-action permit-action-icon"
          to={paths.editPermit(permit.id)}
          aria-label={`Edit ${label}`}
          title="Edit"
        >
          <EditOutlined fontSize="small" />
        </RouterLink>
      ) : null}
      {permit.can.delete ? (
        <button
          type="button"
          className="permit-action permit-action-icon permit-action-danger"
          onClick={() => onDelete(permit)}
          aria-label={`Delete ${label}`}
          title="Delete"
        >
          <DeleteOutlined fontSize="small" />
        </button>
      ) : null}
    </Box>
  );
}

type Dot = "expired" | "expiring" | "dated" | "undated";
const dotOf = (p: PermitListItem): Dot => p.urgency ?? (p.expiration_date ? "dated" : "undated");

/**
 * One dot per permit of the project on this page (spec section 2): red when it has expired, amber
 * when it expires within 30 days, dark with a later expiration date, light without one (issue 25).
 */
export function ProjectDots({ permits }: { permits: PermitListItem[] }) {
  const dots = permits.map(dotOf);
  const count = (dot: Dot) => dots.filter((d) => d === dot).length;
  const urgent = [
    count("expired") ? `${count("expired")} expired` : null,
    count("expiring") ? `${count("expiring")} expiring within 30 days` : null,
  ].filter(Boolean);
  const label = `${permits.length} ${permits.length === 1 ? "permit" : "permits"}${urgent.length ? `: ${urgent.join(", ")}` : ""}`;
  return (
    <span role="img" aria-label={label} title={label} className="permit-dots">
      {permits.map((p, i) => (
        <span
          key={p.id}
          data-dot={dots[i]}
          className={dots[i] === "undated" ? "permit-dot" : `permit-dot permit-dot-${dots[i]}`}
        />
      ))}
    </span>
  );
}

/** A flat row's project: a plain link to its dashboard (50 rows: no MUI component per row). */
export function ProjectCellLink({ project }: { project: PermitListItem["project"] }) {
  if (!project) return <span>No project</span>;
  return (
    <RouterLink className="permit-project-link" to={paths.projectDashboard(project.id)}>
      {project.name}
    </RouterLink>
  );
}

/** The project header's link to its dashboard, or a plain label for permits without a project. */
export function ProjectTitle({ project }: { project: PermitGroup["projects"][number]["project"] }) {
  const theme = useTheme();
  if (!project) return <span>No project</span>;
  return (
    <Link
      component={RouterLink}
      to={paths.projectDashboard(project.id)}
      // A 44 px target on a phone, where it heads a group of cards.
      sx={{
        fontWeight: 600,
        display: { xs: "inline-flex", md: "inline" },
        alignItems: "center",
        minHeight: { xs: 44, md: "auto" },
      }}
    >
      {/* One flex item: the number wraps with the name, not in a column of its own on a phone. */}
      <span>
        {project.name}
        {project.project_number ? (
          <span style={{ color: theme.palette.text.secondary, fontWeight: 400 }}>
            {" "}
            · {project.project_number}
          </span>
        ) : null}
      </span>
    </Link>
  );
}

/**
 * Issue 29: the permit's condition tasks in brief, when any are due within 7 days or overdue
 * ("2 tasks due · 1 overdue · next Dec 3, 2026"); null otherwise.
 */
export function tasksDueText(tasks: PermitListItem["tasks"]): string | null {
  if (!tasks.due) return null;
  const parts = [`${tasks.due} ${tasks.due === 1 ? "task" : "tasks"} due`];
  if (tasks.overdue) parts.push(`${tasks.overdue} overdue`);
  const next = formatDay(tasks.nextDueOn);
  if (next) parts.push(`next ${next}`);
  return parts.join(" · ");
}
