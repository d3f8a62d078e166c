import { Suspense, useState } from "react";
import BookmarkAddOutlined from "@mui/icons-material/BookmarkAddOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { BUILT_IN_VIEWS, type SavedViewParams } from "../../../../shared/domain/permit-list.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useNotify } from "../../../lib/notify.ts";
import { lazyWithPreload, useHasOpened } from "../../../lib/on-demand.ts";
import { useDeleteSavedView, useRestoreSavedView, useSavedViews } from "../api/saved-views.ts";

// The dialog (MUI's Dialog and TextField) is fetched when the pointer comes near 'Save view'.
const { Component: SaveViewDialog, preload: preloadDialog } = lazyWithPreload(
  () => import("./save-view-dialog.tsx"),
);

const toSearch = (params: SavedViewParams) => new URLSearchParams(params as Record<string, string>);

/**
 * The All Permits list's views beside its filters (issue 14): 'Expiring in 30 days' and 'Expired'
 * for everyone, then the user's own, each a click away; 'Save view' keeps the current filters
 * (`params`) under a name. The view the list shows now (`isCurrent`) is marked.
 */
export function SavedViewsBar({
  params: current,
  isCurrent: isShown,
  onApply,
}: {
  params: SavedViewParams;
  isCurrent: (params: SavedViewParams) => boolean;
  onApply: (params: URLSearchParams) => void;
}) {
  const views = useSavedViews();
  const remove = useDeleteSavedView();
  const restore = useRestoreSavedView();
  const notify = useNotify();
  // A chip's delete takes effect at once, with Undo in the message (issue 25: no way back before).
  const deleteView = (view: { id: string; name: string; params: SavedViewParams }) =>
    remove.mutate(view.id, {
      onSuccess: () =>
        notify("View deleted.", "success", {
          label: "Undo",
          onClick: () => restore.mutate({ name: view.name, params: view.params }),
        }),
    });
  const [isSaving, setIsSaving] = useState(false);
  const hasOpened = useHasOpened(isSaving);
  const chip = (key: string, name: string, params: SavedViewParams, onDelete?: () => void) => {
    const isCurrent = isShown(params);
    return (
      <Chip
        key={key}
        label={name}
        clickable
        color={isCurrent ? "primary" : "default"}
        variant={isCurrent ? "filled" : "outlined"}
        aria-pressed={isCurrent}
        onClick={() => onApply(toSearch(params))}
        onDelete={onDelete}
      />
    );
  };
  return (
    <Box
      component="section"
      aria-label="Views"
      sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1 }}
    >
      <Typography variant="body2" color="text.secondary" component="span" sx={{ fontWeight: 600 }}>
        Views
      </Typography>
      {BUILT_IN_VIEWS.map((v) => chip(v.key, v.name, v.params))}
      {(views.data ?? []).map((v) => chip(v.id, v.name, v.params, () => deleteView(v)))}
      <Button
        size="small"
        startIcon={<BookmarkAddOutlined />}
        onPointerEnter={preloadDialog}
        onFocus={preloadDialog}
        onClick={() => setIsSaving(true)}
      >
        Save view
      </Button>
      {views.isError ? (
        <Typography variant="body2" color="error">
          {errorMessage(views.error)}
        </Typography>
      ) : null}
      {hasOpened ? (
        <Suspense fallback={null}>
          <SaveViewDialog open={isSaving} params={current} onClose={() => setIsSaving(false)} />
        </Suspense>
      ) : null}
    </Box>
  );
}
