import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import type { Project } from "../../../../shared/schemas/projects.ts";
import { errorMessage } from "../../../lib/api.ts";
import { useDeleteProject } from "../api/save-project.ts";
import { plural } from "../../../lib/format.ts";

/** The spec's confirmation, saying how many permits go with the project. */
export function DeleteProjectDialog({
  project,
  onClose,
  onDeleted,
}: {
  project: Project | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteProject();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={!!project}
      title={project ? `Delete ${project.name}` : "Delete project"}
      message="Are you sure you want to delete this project?"
      details={
        project?.permit_count
          ? `Its ${plural(project.permit_count, "permit")} will be deleted with it, including comments and attachments.`
          : "It has no permits."
      }
      isBusy={remove.isPending}
      error={remove.isError ? errorMessage(remove.error) : undefined}
      onClose={close}
      onConfirm={() =>
        project &&
        remove.mutate(project.id, {
          onSuccess: () => {
            close();
            onDeleted?.();
          },
        })
      }
    />
  );
}
