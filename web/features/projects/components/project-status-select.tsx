import { useState } from "react";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { PROJECT_STATUSES, type ProjectStatus } from "../../../../shared/domain/statuses.ts";
import type { Project } from "../../../../shared/schemas/projects.ts";
import { useUpdateProjectStatus } from "../api/update-project-status.ts";

/**
 * A project's status, saved as soon as it is picked (spec section 4). While saving it shows the
 * pick; if the save fails it falls back to the saved value (and the snackbar says why).
 */
export function ProjectStatusSelect({
  project,
  label,
  fullWidth,
}: {
  project: Project;
  /** A visible label (the dashboard); without one the select is named "Status of <project>". */
  label?: string;
  fullWidth?: boolean;
}) {
  const [pending, setPending] = useState<ProjectStatus | null>(null);
  const update = useUpdateProjectStatus();
  return (
    <TextField
      select
      size="small"
      label={label}
      fullWidth={fullWidth}
      value={pending ?? project.status}
      disabled={update.isPending}
      onChange={(event) => {
        const status = event.target.value as ProjectStatus;
        if (status === project.status) return;
        setPending(status);
        update.mutate({ id: project.id, status }, { onSettled: () => setPending(null) });
      }}
      slotProps={{ htmlInput: label ? undefined : { "aria-label": `Status of ${project.name}` } }}
      sx={label ? undefined : { width: 210 }}
    >
      {PROJECT_STATUSES.map((status) => (
        <MenuItem key={status} value={status}>
          {status}
        </MenuItem>
      ))}
    </TextField>
  );
}
