import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Popover from "@mui/material/Popover";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { ROLE_LABELS } from "../../../../shared/domain/roles.ts";
import type { ImpersonationCandidate } from "../../../../shared/schemas/impersonation.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useImpersonationCandidates } from "../api/candidates.ts";
import { useStartImpersonation } from "../api/impersonation.ts";

type Option = ImpersonationCandidate & { companyName: string };

/** The user switcher's popover (user-switcher.tsx), a chunk of its own fetched when it first opens. */
export default function UserSwitcherPopover({
  anchor,
  onClose,
}: {
  anchor: HTMLElement | null;
  onClose: () => void;
}) {
  const candidates = useImpersonationCandidates(!!anchor);
  const start = useStartImpersonation();
  const options: Option[] =
    candidates.data?.groups.flatMap((g) => g.users.map((u) => ({ ...u, companyName: g.companyName }))) ?? [];

  return (
    <Popover
      open={!!anchor}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      transformOrigin={{ vertical: "top", horizontal: "right" }}
      slotProps={{
        paper: {
          sx: { p: 2, width: { xs: "calc(100vw - 32px)", sm: 380 } },
          role: "dialog",
          "aria-label": "View as another user",
        },
      }}
    >
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        View as another user
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        See the app exactly as they do, for up to one hour. Changes you make are recorded under both names.
      </Typography>
      <Autocomplete
        options={options}
        groupBy={(o) => o.companyName}
        getOptionLabel={(o) => `${o.name} (${o.email})`}
        loading={candidates.isPending}
        disabled={start.isPending}
        openOnFocus
        autoHighlight
        noOptionsText={candidates.isError ? errorMessage(candidates.error) : "No users found"}
        onChange={(_event, option) => {
          if (option) start.mutate(option.id);
        }}
        renderOption={({ key, ...props }, o) => (
          <Box component="li" key={key} {...props} sx={{ display: "block !important" }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {o.name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {o.email} · {ROLE_LABELS[o.role]}
            </Typography>
          </Box>
        )}
        // Each company's users as an ARIA group of options: MUI's own grouping puts the options in a
        // plain list inside the listbox, which screen readers (and axe) cannot read as options.
        renderGroup={(group) => (
          <Box component="li" key={group.key} role="group" aria-labelledby={`switcher-group-${group.key}`}>
            <Typography
              id={`switcher-group-${group.key}`}
              variant="caption"
              component="div"
              sx={{
                px: 2,
                py: 0.75,
                fontWeight: 600,
                color: "text.secondary",
                bgcolor: "background.paper",
              }}
            >
              {group.group}
            </Typography>
            <Box component="ul" role="none" sx={{ p: 0, m: 0 }}>
              {group.children}
            </Box>
          </Box>
        )}
        renderInput={(params) => (
          <TextField {...params} autoFocus label="View as user" placeholder="Search by name or e-mail" />
        )}
      />
    </Popover>
  );
}
