import { useRef, useState, type ReactNode } from "react";
import { useController, useForm, type Control, type FieldPath, type FieldValues } from "react-hook-form";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import AttachFile from "@mui/icons-material/AttachFile";
import Close from "@mui/icons-material/Close";
import { FINAL_STATUSES, INSPECTION_RESULTS } from "../../../../../shared/domain/lifecycle.ts";
import {
  CloseInputSchema,
  ExtensionInputSchema,
  InspectionInputSchema,
  LIFECYCLE_LIMITS,
  RenewalInputSchema,
  type CloseFormValues,
  type ExtensionFormValues,
  type InspectionFormValues,
  type RenewalFormValues,
} from "../../../../../shared/schemas/lifecycle.ts";
import { errorMessage, isApiError } from "../../../../lib/api.ts";
import { applyServerFieldErrors } from "../../../../lib/form-errors.ts";
import { formatDay } from "../../../../lib/format.ts";
import { useNotify } from "../../../../lib/notify.ts";
import { zodResolver } from "../../../../lib/zod-resolver.ts";
import { useUploadPermitFile } from "../../api/upload-attachment.ts";
import {
  useClosePermit,
  useExtendPermit,
  useRecordInspection,
  useRenewPermit,
} from "../../api/lifecycle-steps.ts";

/** A text, date or select input bound to one of the dialogs' forms, with its error below it. */
export function DialogField<T extends FieldValues>({
  control,
  name,
  label,
  required,
  maxLength,
  ...props
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  required?: boolean;
  maxLength?: number;
} & Omit<TextFieldProps, "name" | "label" | "value" | "onChange" | "required">) {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextField
      {...props}
      fullWidth
      label={label}
      name={field.name}
      value={field.value ?? ""}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={!!fieldState.error}
      helperText={fieldState.error?.message ?? props.helperText}
      slotProps={{
        ...props.slotProps,
        htmlInput: { maxLength, "aria-required": required || undefined },
        ...(props.type === "date" || props.select ? { inputLabel: { shrink: true } } : {}),
        ...(props.select ? { select: { displayEmpty: true } } : {}),
      }}
    />
  );
}

/**
 * The frame every lifecycle dialog shares: a form with its fields, the server's message when it is
 * not about one field, Cancel and the save button (busy while saving). Full screen on a phone.
 */
export function StepDialog({
  open,
  title,
  intro,
  submitLabel,
  isBusy,
  error,
  onSubmit,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  intro?: ReactNode;
  submitLabel: string;
  isBusy: boolean;
  error: unknown;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down("sm"));
  const titleId = `lifecycle-dialog-${submitLabel.replace(/\W+/g, "-").toLowerCase()}`;
  const showError = !!error && !(isApiError(error) && error.fields && Object.keys(error.fields).length);
  return (
    <Dialog
      open={open}
      onClose={isBusy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      fullScreen={isPhone}
    >
      <Box
        component="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        sx={{ display: "flex", flexDirection: "column", minHeight: isPhone ? "100%" : undefined }}
      >
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent sx={{ flex: isPhone ? 1 : undefined }}>
          {intro ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {intro}
            </Typography>
          ) : null}
          <Box
            sx={{
              display: "grid",
              gridTemplateColumns: { xs: "1fr", sm: "repeat(2, minmax(0, 1fr))" },
              gap: 2,
              pt: 1,
            }}
          >
            {children}
          </Box>
          {showError ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {errorMessage(error)}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={isBusy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={isBusy}>
            {isBusy ? "Saving..." : submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** Spans both columns of a dialog's grid. */
export const full = { gridColumn: "1 / -1" } as const;

/** The dialog's props: which permit, and what it says today. */
interface StepProps {
  permitId: string;
  open: boolean;
  onClose: () => void;
}

/**
 * 'Renew Permit': a new term with a later expiry (and optionally a new issue date, number, fee,
 * note). The optional file goes through the attachments upload once the renewal is saved.
 */
export function RenewDialog({
  permitId,
  open,
  onClose,
  currentNumber,
  currentExpiry,
}: StepProps & { currentNumber: string; currentExpiry: string | null }) {
  const renew = useRenewPermit(permitId);
  const notify = useNotify();
  const [progress, setProgress] = useState(0);
  const upload = useUploadPermitFile(setProgress);
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const empty: RenewalFormValues = {
    new_expiration_date: "",
    new_issue_date: "",
    new_permit_number: currentNumber,
    renewal_fee: "",
    note: "",
  };
  const { control, handleSubmit, setError, reset, formState } = useForm<RenewalFormValues>({
    resolver: zodResolver(RenewalInputSchema),
    values: empty,
  });
  const close = () => {
    reset(empty);
    setFile(null);
    renew.reset();
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    try {
      await renew.mutateAsync(values);
    } catch (error) {
      applyServerFieldErrors(error, setError, [
        "new_expiration_date",
        "new_issue_date",
        "new_permit_number",
        "renewal_fee",
        "note",
      ]);
      return;
    }
    if (file) {
      try {
        await upload.mutateAsync({ permitId, file });
        notify(`${file.name} attached to the permit.`, "success");
      } catch (error) {
        notify(
          `The permit was renewed, but the file could not be uploaded: ${errorMessage(error)} Upload it again under Attachments.`,
          "error",
        );
      }
    }
    close();
  });
  const isBusy = formState.isSubmitting;
  return (
    <StepDialog
      open={open}
      title="Renew Permit"
      intro={`Ends the current term and starts a new one. The new expiration date must come after ${
        formatDay(currentExpiry) ?? "the current one"
      }.`}
      submitLabel="Save Renewal"
      isBusy={isBusy}
      error={renew.error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField
        control={control}
        name="new_expiration_date"
        label="New Expiration Date"
        type="date"
        required
      />
      <DialogField control={control} name="new_issue_date" label="New Issue Date" type="date" />
      <DialogField
        control={control}
        name="new_permit_number"
        label="New Permit Number"
        maxLength={LIFECYCLE_LIMITS.permitNumber}
        helperText="Keep it if the agency did not issue a new one."
      />
      <DialogField
        control={control}
        name="renewal_fee"
        label="Renewal Fee"
        inputMode="decimal"
        slotProps={{ input: { startAdornment: <InputAdornment position="start">$</InputAdornment> } }}
      />
      <DialogField
        control={control}
        name="note"
        label="Note"
        multiline
        minRows={2}
        maxLength={LIFECYCLE_LIMITS.note}
        sx={full}
      />
      <Box sx={{ ...full, display: "flex", alignItems: "center", gap: 1.5, flexWrap: "wrap" }}>
        <Button variant="outlined" component="label" startIcon={<AttachFile />} disabled={isBusy}>
          Attach File
          <input
            ref={fileInput}
            type="file"
            hidden
            aria-label="Renewal file"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </Button>
        {file ? (
          <Box sx={{ display: "flex", alignItems: "center", gap: 0.5, minWidth: 0 }}>
            <Typography variant="body2" noWrap sx={{ maxWidth: 260 }}>
              {file.name}
            </Typography>
            <IconButton
              size="small"
              aria-label="Remove the chosen file"
              onClick={() => {
                setFile(null);
                if (fileInput.current) fileInput.current.value = "";
              }}
            >
              <Close fontSize="small" />
            </IconButton>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary">
            Optional: the renewed permit; it becomes the permit&apos;s current attachment.
          </Typography>
        )}
        {upload.isPending ? (
          <Typography variant="body2" color="text.secondary" role="status">
            Uploading the file... {Math.round(progress * 100)}%
          </Typography>
        ) : null}
      </Box>
    </StepDialog>
  );
}

/** 'Extend Permit': the same term, a later date, and why. */
export function ExtendDialog({
  permitId,
  open,
  onClose,
  currentExpiry,
}: StepProps & { currentExpiry: string | null }) {
  const extend = useExtendPermit(permitId);
  const empty: ExtensionFormValues = { new_expiration_date: "", reason: "" };
  const { control, handleSubmit, setError, reset, formState } = useForm<ExtensionFormValues>({
    resolver: zodResolver(ExtensionInputSchema),
    values: empty,
  });
  const close = () => {
    reset(empty);
    extend.reset();
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    try {
      await extend.mutateAsync(values);
      close();
    } catch (error) {
      applyServerFieldErrors(error, setError, ["new_expiration_date", "reason"]);
    }
  });
  return (
    <StepDialog
      open={open}
      title="Extend Permit"
      intro={`Keeps the current term and moves its expiration date from ${
        formatDay(currentExpiry) ?? "none"
      } to a later one.`}
      submitLabel="Save Extension"
      isBusy={formState.isSubmitting}
      error={extend.error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField
        control={control}
        name="new_expiration_date"
        label="New Expiration Date"
        type="date"
        required
      />
      <DialogField
        control={control}
        name="reason"
        label="Reason"
        required
        maxLength={LIFECYCLE_LIMITS.reason}
        sx={full}
        multiline
        minRows={2}
      />
    </StepDialog>
  );
}

/** 'Record Inspection'. Under 'Days after last passed inspection' a pass moves the expiry. */
export function InspectionDialog({
  permitId,
  open,
  onClose,
  today,
  movesExpiryBy,
}: StepProps & { today: string; movesExpiryBy: number | null }) {
  const record = useRecordInspection(permitId);
  const empty: InspectionFormValues = {
    inspection_type: "",
    date: today,
    result: "" as InspectionFormValues["result"],
    inspector: "",
    notes: "",
  };
  const { control, handleSubmit, setError, reset, formState } = useForm<InspectionFormValues>({
    resolver: zodResolver(InspectionInputSchema),
    values: empty,
  });
  const close = () => {
    reset(empty);
    record.reset();
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    try {
      await record.mutateAsync(values);
      close();
    } catch (error) {
      applyServerFieldErrors(error, setError, ["inspection_type", "date", "result", "inspector", "notes"]);
    }
  });
  return (
    <StepDialog
      open={open}
      title="Record Inspection"
      intro={
        movesExpiryBy
          ? `This permit expires ${movesExpiryBy} days after its last passed inspection: a passed one moves the expiration date.`
          : undefined
      }
      submitLabel="Save Inspection"
      isBusy={formState.isSubmitting}
      error={record.error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField
        control={control}
        name="inspection_type"
        label="Inspection Type"
        required
        maxLength={LIFECYCLE_LIMITS.shortText}
        placeholder="Footing, Framing, Final..."
        sx={full}
      />
      <DialogField
        control={control}
        name="date"
        label="Date"
        type="date"
        required
        slotProps={{ htmlInput: { max: today } }}
      />
      <DialogField control={control} name="result" label="Result" select required>
        <MenuItem value="" disabled>
          Select a result
        </MenuItem>
        {INSPECTION_RESULTS.map((r) => (
          <MenuItem key={r} value={r}>
            {r}
          </MenuItem>
        ))}
      </DialogField>
      <DialogField
        control={control}
        name="inspector"
        label="Inspector"
        maxLength={LIFECYCLE_LIMITS.shortText}
        sx={full}
      />
      <DialogField
        control={control}
        name="notes"
        label="Notes"
        multiline
        minRows={2}
        maxLength={LIFECYCLE_LIMITS.note}
        sx={full}
      />
    </StepDialog>
  );
}

/** 'Close Permit': the close date and how it ended; reminders stop and the history turns read-only. */
export function CloseDialog({ permitId, open, onClose, today }: StepProps & { today: string }) {
  const closePermit = useClosePermit(permitId);
  const empty: CloseFormValues = {
    close_date: today,
    final_status: "" as CloseFormValues["final_status"],
  };
  const { control, handleSubmit, setError, reset, formState } = useForm<CloseFormValues>({
    resolver: zodResolver(CloseInputSchema),
    values: empty,
  });
  const close = () => {
    reset(empty);
    closePermit.reset();
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    try {
      await closePermit.mutateAsync(values);
      close();
    } catch (error) {
      applyServerFieldErrors(error, setError, ["close_date", "final_status"]);
    }
  });
  return (
    <StepDialog
      open={open}
      title="Close Permit"
      intro="A closed permit gets no more reminders, and its terms and inspections become read-only."
      submitLabel="Close Permit"
      isBusy={formState.isSubmitting}
      error={closePermit.error}
      onSubmit={onSubmit}
      onClose={close}
    >
      <DialogField control={control} name="close_date" label="Close Date" type="date" required />
      <DialogField control={control} name="final_status" label="Final Status" select required>
        <MenuItem value="" disabled>
          Select a status
        </MenuItem>
        {FINAL_STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {s}
          </MenuItem>
        ))}
      </DialogField>
    </StepDialog>
  );
}
