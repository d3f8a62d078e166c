import Box from "@mui/material/Box";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import SearchIcon from "@mui/icons-material/Search";
import {
  REQUEST_PARTY_SEARCH_MAX,
  REQUEST_QUEUE_STATE_LABELS,
  REQUEST_QUEUE_STATES,
  type RequestQueueState,
} from "../../../../shared/domain/document-requests.ts";
import { EMPTY_STATES } from "../../../../shared/domain/empty-states.ts";
import { AccessDenied } from "../../../components/access-denied.tsx";
import { ListEmptyState } from "../../../components/getting-started.tsx";
import { ListPagination } from "../../../components/list-pagination.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { PageSpinner } from "../../../components/page-spinner.tsx";
import { errorMessage } from "../../../lib/api.ts";
import { useCan } from "../../../lib/session.tsx";
import { useUrlListState } from "../../../lib/url-list-state.ts";
import { CompanySelect } from "../../companies/index.ts";
import { useRequestQueue } from "../api/request-queue.ts";
import { RequestQueueTable } from "./request-queue-table.tsx";

const isState = (v: string | null): v is RequestQueueState =>
  !!v && (REQUEST_QUEUE_STATES as readonly string[]).includes(v);
const isDay = (v: string | null) => (v && /^\d{4}-\d\d-\d\d$/.test(v) ? v : "");

/**
 * Requests (/requests, issue 27): every document request of the company (a super-admin's: every
 * company's, or the one chosen), those awaiting review first. State, Party, Due from/to and the
 * page live in the URL; a row links to its permit's or bond's page, where it is reviewed.
 */
export function RequestsScreen() {
  const canReview = useCan("permits.edit");
  const isSuperAdmin = useCan("allCompanies");
  const { params, page, pageSize, search, setSearch, setParam, clear } = useUrlListState("party");
  const stateParam = params.get("state");
  const state: RequestQueueState = isState(stateParam) ? stateParam : "all";
  const companyId = isSuperAdmin ? (params.get("company") ?? "") : "";
  const dueFrom = isDay(params.get("due_from"));
  const dueTo = isDay(params.get("due_to"));

  const queue = useRequestQueue(
    {
      companyId: companyId || null,
      state,
      party: params.get("party") ?? "",
      dueFrom,
      dueTo: dueTo && dueFrom && dueTo < dueFrom ? "" : dueTo,
      page,
      pageSize,
    },
    { enabled: canReview },
  );
  if (!canReview) return <AccessDenied />;

  const data = queue.data;
  const isFiltered = !!(params.get("party") || state !== "all" || companyId || dueFrom || dueTo);
  return (
    <>
      <PageHeader title="Requests" />
      <Typography color="text.secondary" sx={{ mb: 2, maxWidth: 760 }}>
        Documents asked of agencies, surety agents and other outside parties. Those awaiting review come
        first; open a permit or bond to approve or reject what was sent.
      </Typography>
      <Box
        role="search"
        sx={{
          display: "grid",
          gridTemplateColumns: {
            xs: "1fr 1fr",
            md: isSuperAdmin ? "1fr 2fr 1fr 1fr 1.5fr" : "1fr 2fr 1fr 1fr",
          },
          gap: 1.5,
          mb: 2,
          maxWidth: 1100,
        }}
      >
        <TextField
          select
          label="State"
          value={state}
          onChange={(e) => setParam({ state: e.target.value === "all" ? "" : e.target.value })}
          size="small"
          sx={{ gridColumn: { xs: "1 / -1", md: "auto" } }}
        >
          {REQUEST_QUEUE_STATES.map((s) => (
            <MenuItem key={s} value={s}>
              {REQUEST_QUEUE_STATE_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Party"
          placeholder="Name, organization or e-mail"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          size="small"
          sx={{ gridColumn: { xs: "1 / -1", md: "auto" } }}
          slotProps={{
            htmlInput: { maxLength: REQUEST_PARTY_SEARCH_MAX },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <TextField
          type="date"
          label="Due from"
          value={dueFrom}
          onChange={(e) => setParam({ due_from: e.target.value })}
          size="small"
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          label="Due to"
          value={dueTo}
          onChange={(e) => setParam({ due_to: e.target.value })}
          size="small"
          error={!!(dueFrom && dueTo && dueTo < dueFrom)}
          helperText={dueFrom && dueTo && dueTo < dueFrom ? "Due to cannot be before Due from" : undefined}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        {isSuperAdmin ? (
          <Box sx={{ gridColumn: { xs: "1 / -1", md: "auto" } }}>
            <CompanySelect
              value={companyId}
              onChange={(id) => setParam({ company: id })}
              allLabel="All companies"
              placeholder="All companies"
              size="small"
            />
          </Box>
        ) : null}
      </Box>
      {queue.isPending ? (
        <PageSpinner label="Loading requests..." />
      ) : queue.isError ? (
        <Typography color="error" role="alert">
          {errorMessage(queue.error)}
        </Typography>
      ) : !data || data.items.length === 0 ? (
        <Paper variant="outlined">
          <ListEmptyState
            text={data?.any && isFiltered ? EMPTY_STATES.requests.filtered : EMPTY_STATES.requests.none}
            onClear={isFiltered ? clear : undefined}
          />
        </Paper>
      ) : (
        <>
          <RequestQueueTable items={data.items} showCompany={isSuperAdmin && !companyId} />
          <ListPagination total={data.total} page={page} pageSize={pageSize} setParam={setParam} />
        </>
      )}
    </>
  );
}
