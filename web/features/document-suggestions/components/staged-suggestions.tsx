import { useEffect, useState } from "react";
import Typography from "@mui/material/Typography";
import type { Suggestion, SuggestionField } from "../../../../shared/domain/document-reading.ts";
import { errorMessage } from "../../../lib/api.ts";
import { isReadableFile, useReading, useStageReading } from "../api/readings.ts";
import { suggestionKey, type CurrentValues } from "../suggestion-values.ts";
import { SuggestionsPanel } from "./suggestions-panel.tsx";

export interface StagedSuggestionsProps {
  /** The file chosen under 'Permit File Upload'; null: none. */
  file: File | null;
  /** A super-admin's form names the company (null until chosen); everyone else's is their own. */
  companyId: string | null;
  /** A super-admin has not chosen the company yet: the file waits for it. */
  needsCompany: boolean;
  current: CurrentValues;
  currency: string | null;
  refusal: (field: SuggestionField) => string | null;
  /** Fill the form's fields (nothing is saved until the form is). */
  onAccept: (suggestions: Suggestion[]) => void;
}

/**
 * The permit form's suggestions (issue 28): as soon as a PDF or image is chosen it is sent to be
 * read (a staged read: the permit does not exist yet), the reading is followed until it is done,
 * and Accept fills the form's field. The file is still attached when the form is saved.
 */
export function StagedSuggestions({ file, companyId, needsCompany, ...rest }: StagedSuggestionsProps) {
  const readable = !!file && isReadableFile(file);
  if (!file || !readable) return null;
  if (needsCompany)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        Select a company to have {file.name} read for suggested values.
      </Typography>
    );
  // A new file (or company) starts over: its own reading, nothing accepted yet.
  return (
    <StagedPanel
      key={`${file.name}:${file.size}:${file.lastModified}:${companyId}`}
      file={file}
      companyId={companyId}
      {...rest}
    />
  );
}

function StagedPanel({
  file,
  companyId,
  current,
  currency,
  refusal,
  onAccept,
}: Omit<StagedSuggestionsProps, "file" | "needsCompany"> & { file: File }) {
  const stage = useStageReading();
  const { mutate } = stage;
  useEffect(() => {
    mutate({ file, companyId });
  }, [mutate, file, companyId]);
  const reading = useReading(stage.data);
  const [accepted, setAccepted] = useState<ReadonlySet<string>>(new Set());
  return (
    <SuggestionsPanel
      filename={file.name}
      reading={reading.data}
      sendError={
        stage.isError ? errorMessage(stage.error) : reading.isError ? errorMessage(reading.error) : null
      }
      current={current}
      currentLabel="In the form"
      currency={currency}
      refusal={refusal}
      accepted={accepted}
      onAccept={(chosen) => {
        onAccept(chosen);
        setAccepted((was) => new Set([...was, ...chosen.map(suggestionKey)]));
      }}
      intro="Check each value against the document. Accept fills the form; nothing is saved until you save the permit."
      headingLevel="h3"
    />
  );
}
