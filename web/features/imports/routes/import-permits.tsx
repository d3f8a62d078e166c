import { useRef, useState } from "react";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Typography from "@mui/material/Typography";
import DownloadIcon from "@mui/icons-material/Download";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { CSV_PREVIEW_ROWS, CSV_TEMPLATE_COLUMNS } from "../../../../shared/domain/constants.ts";
import type { ImportResult } from "../../../../shared/schemas/imports.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { formatBytes, formatCount } from "../../../lib/format.ts";
import { useNotify } from "../../../lib/notify.ts";
import { paths } from "../../../lib/paths.ts";
import { useCan } from "../../../lib/session.tsx";
import { useCompanies } from "../../companies/index.ts";
import { TEMPLATE_URL, useImportPermits } from "../api/import-permits.ts";
import { ImportReport } from "../components/import-report.tsx";
import { PreviewTable } from "../components/preview-table.tsx";

type Phase = "idle" | "checking" | "checked" | "importing" | "done";

/** Import Permits from CSV (spec section 2): choose a file, see the preview and what will happen, import. */
export default function ImportPermitsPage() {
  const canImport = useCan("imports.run");
  const isSuperAdmin = useCan("allCompanies");
  const notify = useNotify();
  // The companies a super-admin may import into.
  const companies = useCompanies({ enabled: canImport && isSuperAdmin });
  const mutation = useImportPermits();
  const fileInput = useRef<HTMLInputElement>(null);
  const [companyId, setCompanyId] = useState("");
  const [file, setFile] = useState<File | null>(null);
  // Issue 29: the optional 'Conditions file' (permit_number, project and one condition a row).
  const conditionsInput = useRef<HTMLInputElement>(null);
  const [conditionsFile, setConditionsFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [progress, setProgress] = useState(0);
  const [check, setCheck] = useState<ImportResult | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (!canImport) {
    return (
      <>
        <PageHeader title="Import Permits from CSV" />
        <AccessDenied />
      </>
    );
  }

  const needsCompany = isSuperAdmin && !companyId;
  const busy = phase === "checking" || phase === "importing";

  const run = async (chosen: File, dryRun: boolean, company: string, conditions = conditionsFile) => {
    setError(null);
    setProgress(0);
    setPhase(dryRun ? "checking" : "importing");
    try {
      const answer = await mutation.mutateAsync({
        file: chosen,
        conditionsFile: conditions,
        companyId: isSuperAdmin ? company : null,
        dryRun,
        onProgress: setProgress,
      });
      if (dryRun) {
        setCheck(answer);
        setPhase("checked");
      } else {
        setResult(answer);
        setPhase("done");
        notify(`Imported ${formatCount(answer.inserted.length)} permits.`, "success");
      }
    } catch (err) {
      setError(errorMessage(err));
      setPhase(dryRun ? "idle" : "checked");
    }
  };

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setCheck(null);
    setResult(null);
    if (chosen && !needsCompany) void run(chosen, true, companyId);
  };

  const chooseConditions = (chosen: File | null) => {
    setConditionsFile(chosen);
    setCheck(null);
    setResult(null);
    if (file && !needsCompany) void run(file, true, companyId, chosen);
  };

  const changeCompany = (id: string) => {
    setCompanyId(id);
    setCheck(null);
    setResult(null);
    if (file && id) void run(file, true, id);
  };

  const reset = () => {
    setFile(null);
    setConditionsFile(null);
    if (conditionsInput.current) conditionsInput.current.value = "";
    setCheck(null);
    setResult(null);
    setError(null);
    setPhase("idle");
    if (fileInput.current) fileInput.current.value = "";
  };

  return (
    <>
      <PageHeader
        title="Import Permits from CSV"
        actions={
          <Button variant="outlined" startIcon={<DownloadIcon />} href={TEMPLATE_URL} download>
            Download template
          </Button>
        }
      />
      <Card variant="outlined" sx={{ mb: 3 }}>
        <CardContent sx={{ display: "grid", gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            A CSV file (UTF-8, comma or semicolon separated) of up to 10 MB and 20,000 rows. The first row
            names the columns: <code>project</code>, <code>start_date</code> and <code>permit_number</code>{" "}
            are required; the template also has {CSV_TEMPLATE_COLUMNS.length - 3} optional ones. Dates may be
            YYYY-MM-DD or MM/DD/YYYY. Projects are matched by number or name and created when missing; a
            permit number already in its project is skipped.
          </Typography>
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center" }}>
            {isSuperAdmin && (
              <FormControl sx={{ minWidth: 260 }} size="small" error={!!file && needsCompany}>
                <InputLabel id="import-company-label">Company</InputLabel>
                <Select
                  labelId="import-company-label"
                  label="Company"
                  value={companyId}
                  onChange={(e) => changeCompany(e.target.value)}
                  disabled={busy || companies.isLoading}
                >
                  {(companies.data?.companies ?? []).map((c) => (
                    <MenuItem key={c.id} value={c.id}>
                      {c.name}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
            )}
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={busy}>
              {file ? "Choose another file" : "Choose CSV file"}
              <input
                ref={fileInput}
                hidden
                type="file"
                accept=".csv,text/csv"
                aria-label="CSV file"
                onChange={(e) => choose(e.target.files?.[0] ?? null)}
              />
            </Button>
            {file && (
              <Typography variant="body2">
                {file.name} · {formatBytes(file.size)}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, alignItems: "center" }}>
            <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={busy}>
              {conditionsFile ? "Choose another conditions file" : "Conditions file (optional)"}
              <input
                ref={conditionsInput}
                hidden
                type="file"
                accept=".csv,text/csv"
                aria-label="Conditions file"
                onChange={(e) => chooseConditions(e.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography variant="body2" color="text.secondary" sx={{ flex: "1 1 240px" }}>
              {conditionsFile
                ? `${conditionsFile.name} · ${formatBytes(conditionsFile.size)}`
                : "A second CSV of the permits' conditions of approval, one a row: its project, permit number, title and schedule."}
            </Typography>
          </Box>
          {companies.isError && <Alert severity="error">Unable to load companies.</Alert>}
          {file && needsCompany && <Alert severity="info">Choose the company to import into.</Alert>}
          {busy && (
            <Box>
              <Typography variant="body2" sx={{ mb: 0.5 }}>
                {progress < 1
                  ? `Uploading… ${Math.round(progress * 100)}%`
                  : phase === "checking"
                    ? "Checking the rows…"
                    : "Importing…"}
              </Typography>
              <LinearProgress
                variant={progress < 1 ? "determinate" : "indeterminate"}
                value={progress * 100}
                aria-label={phase === "checking" ? "Checking progress" : "Import progress"}
              />
            </Box>
          )}
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
        </CardContent>
      </Card>

      {check && phase !== "done" && (
        <Card variant="outlined" sx={{ mb: 3 }}>
          <CardContent sx={{ display: "grid", gap: 2 }}>
            <Typography variant="h2" sx={{ fontSize: "1.25rem" }}>
              Preview
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {formatCount(check.total_rows)} rows in {check.file_name}
              {check.total_rows > CSV_PREVIEW_ROWS ? `; the first ${CSV_PREVIEW_ROWS} are shown` : ""}.
              Importing into <strong>{check.company.name}</strong>.
            </Typography>
            <PreviewTable columns={check.preview.columns} rows={check.preview.rows} />
            <ImportReport result={check} />
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <Button
                variant="contained"
                disabled={busy || needsCompany || check.inserted.length === 0}
                onClick={() => file && void run(file, false, companyId)}
              >
                {phase === "importing"
                  ? "Importing…"
                  : `Import ${formatCount(check.inserted.length)} permits`}
              </Button>
              <Button onClick={reset} disabled={busy}>
                Cancel
              </Button>
            </Box>
          </CardContent>
        </Card>
      )}

      {result && (
        <Card variant="outlined">
          <CardContent sx={{ display: "grid", gap: 2 }}>
            <Alert severity="success">
              Import finished: {formatCount(result.inserted.length)} permits added to {result.company.name}.
            </Alert>
            <ImportReport result={result} />
            <Box sx={{ display: "flex", gap: 1 }}>
              <Button variant="contained" component={RouterLink} to={paths.permits}>
                View permits
              </Button>
              <Button onClick={reset}>Import another file</Button>
            </Box>
          </CardContent>
        </Card>
      )}
    </>
  );
}
