import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import CheckCircle from "@mui/icons-material/CheckCircle";
import RadioButtonUnchecked from "@mui/icons-material/RadioButtonUnchecked";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { visuallyHidden } from "@mui/utils";
import { CLEAR_FILTERS, GETTING_STARTED } from "../../shared/domain/empty-states.ts";
import type { GettingStartedSteps } from "../../shared/schemas/scope-contents.ts";
import { paths } from "../lib/paths.ts";
import { useCan } from "../lib/session.tsx";

const { steps: STEP } = GETTING_STARTED;

/** One step: its tick (or an empty circle), its number and its words, and " (done)" for a screen reader. */
function Step({
  number,
  done,
  children,
  hint,
}: {
  number: number;
  done: boolean;
  children: ReactNode;
  hint?: string;
}) {
  const Icon = done ? CheckCircle : RadioButtonUnchecked;
  return (
    <Box
      component="li"
      data-done={done}
      sx={{ display: "flex", alignItems: "flex-start", gap: 1.25, minHeight: 44, py: 0.5 }}
    >
      <Icon
        aria-hidden
        sx={{ mt: "2px", color: done ? "success.main" : "text.disabled", fontSize: 22, flexShrink: 0 }}
      />
      <Box sx={{ minWidth: 0 }}>
        <Typography
          component="span"
          sx={{ fontWeight: done ? 400 : 600, color: done ? "text.secondary" : undefined }}
        >
          {number} {children}
          {done ? <span style={visuallyHidden}> ({GETTING_STARTED.done})</span> : null}
        </Typography>
        {hint && !done ? (
          <Typography variant="body2" component="span" sx={{ display: "block", color: "text.secondary" }}>
            {hint}
          </Typography>
        ) : null}
      </Box>
    </Box>
  );
}

/** A step's words as a link to its screen when the user may go there, else as words. */
function StepLink({ to, allowed, children }: { to: string; allowed: boolean; children: string }) {
  if (!allowed) return <>{children}</>;
  return (
    <Link component={RouterLink} to={to} underline="always" sx={{ fontWeight: "inherit" }}>
      {children}
    </Link>
  );
}

/**
 * The getting-started steps of an empty platform (super-admin) or an empty company (its staff),
 * issue 25: '1 Create a company', '2 Add a client and a project', '3 Add permits or import a
 * CSV', each a link to its screen (where the user may open it) and ticked when done, from the
 * server's `in_scope.getting_started`. A company's staff see step 1 ticked: their company exists.
 */
export function GettingStarted({ steps, sx }: { steps: GettingStartedSteps; sx?: object }) {
  const managesCompanies = useCan("companies.manage");
  const managesProjects = useCan("projects.manage");
  const createsPermits = useCan("permits.create");
  const imports = useCan("imports.run");
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="getting-started-heading"
      sx={{ p: { xs: 2, sm: 3 }, mb: 2, ...sx }}
    >
      <Typography id="getting-started-heading" variant="h2" sx={{ fontSize: "1.25rem", mb: 0.5 }}>
        {GETTING_STARTED.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        {managesCompanies ? GETTING_STARTED.introPlatform : GETTING_STARTED.introCompany}
      </Typography>
      <Box
        component="ol"
        aria-label={GETTING_STARTED.title}
        sx={{ listStyle: "none", m: 0, p: 0, display: "grid", gap: 0.5 }}
      >
        <Step number={STEP.company.number} done={steps.company}>
          <StepLink to={paths.newCompany} allowed={managesCompanies}>
            {STEP.company.text}
          </StepLink>
        </Step>
        <Step
          number={STEP.clientAndProject.number}
          done={steps.client_and_project}
          hint={managesProjects ? undefined : GETTING_STARTED.askAdmin}
        >
          {/* The project form names its client (a new name adds the client): one screen does both. */}
          <StepLink to={paths.newProject} allowed={managesProjects}>
            {STEP.clientAndProject.text}
          </StepLink>
        </Step>
        <Step number={STEP.permits.number} done={steps.permits}>
          <StepLink to={paths.newPermit} allowed={createsPermits}>
            Add permits
          </StepLink>{" "}
          or{" "}
          <StepLink to={paths.importPermits} allowed={imports}>
            import a CSV
          </StepLink>
        </Step>
      </Box>
    </Paper>
  );
}

/** True while any step is left: the Admin Dashboard shows the steps until then. */
export const hasStepsLeft = (steps: GettingStartedSteps | null | undefined) =>
  !!steps && !(steps.company && steps.client_and_project && steps.permits);

/**
 * A list's "nothing yet" (no records at all) or "nothing matches these filters" (records exist,
 * the filters leave none; with 'Clear Filters' when the user has filters to clear), issue 25.
 */
export function ListEmptyState({
  text,
  onClear,
  children,
}: {
  text: string;
  /** "Nothing matches" with filters set: offers 'Clear Filters'. */
  onClear?: () => void;
  children?: ReactNode;
}) {
  return (
    <Box
      role="status"
      sx={{ p: 3, display: "flex", flexDirection: "column", alignItems: "flex-start", gap: 1.5 }}
    >
      <Typography color="text.secondary">{text}</Typography>
      {children}
      {onClear ? (
        <Button variant="outlined" onClick={onClear}>
          {CLEAR_FILTERS}
        </Button>
      ) : null}
    </Box>
  );
}
