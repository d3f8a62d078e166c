import { useController, type Control, type FieldValues, type Path } from "react-hook-form";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS } from "../../../../shared/domain/webhooks.ts";
import { full } from "../../../components/dialog-kit/index.ts";

/**
 * 'Events': a checkbox per event of the catalogue, and 'All events' above them (ticked when every
 * one is, half-ticked when some are) to tick or clear them all. The value is the ticked events.
 */
export function WebhookEventsField<T extends FieldValues>({
  control,
  name,
}: {
  control: Control<T>;
  name: Path<T>;
}) {
  const { field, fieldState } = useController({ control, name });
  const ticked = (field.value ?? []) as string[];
  const isAll = WEBHOOK_EVENTS.every((e) => ticked.includes(e));
  const isSome = !isAll && ticked.length > 0;
  const set = (next: string[]) => field.onChange(WEBHOOK_EVENTS.filter((e) => next.includes(e)));
  const toggle = (event: string, on: boolean) =>
    set(on ? [...ticked, event] : ticked.filter((e) => e !== event));
  const error = fieldState.error?.message;
  return (
    <FormControl component="fieldset" error={!!error} sx={full}>
      <FormLabel component="legend" sx={{ mb: 0.5 }}>
        Events
      </FormLabel>
      <FormControlLabel
        label="All events"
        control={
          <Checkbox
            checked={isAll}
            indeterminate={isSome}
            onChange={(e) => set(e.target.checked ? [...WEBHOOK_EVENTS] : [])}
          />
        }
        sx={{ "& .MuiFormControlLabel-label": { fontWeight: 500 } }}
      />
      <Box
        role="group"
        aria-label="Each event"
        sx={{
          display: "grid",
          gridTemplateColumns: { xs: "1fr", sm: "repeat(2, minmax(0, 1fr))" },
          columnGap: 2,
          pl: { xs: 0, sm: 3 },
        }}
      >
        {WEBHOOK_EVENTS.map((event) => (
          <FormControlLabel
            key={event}
            label={WEBHOOK_EVENT_LABELS[event]}
            control={
              <Checkbox
                size="small"
                checked={ticked.includes(event)}
                onChange={(e) => toggle(event, e.target.checked)}
                onBlur={field.onBlur}
              />
            }
          />
        ))}
      </Box>
      <FormHelperText>
        {error ?? (isAll ? "Every event, including those added to Permitrack later." : " ")}
      </FormHelperText>
    </FormControl>
  );
}
