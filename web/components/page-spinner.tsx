import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";

/** Centred spinner for a page or a section that is loading. */
export function PageSpinner({
  label = "Loading...",
  fullScreen = false,
}: {
  label?: string;
  fullScreen?: boolean;
}) {
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        py: 8,
        minHeight: fullScreen ? "100vh" : undefined,
      }}
    >
      <CircularProgress aria-label={label} />
    </Box>
  );
}
