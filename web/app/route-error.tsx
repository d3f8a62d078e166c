import { Component, type ErrorInfo, type ReactNode } from "react";
import { useLocation } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";

// After a deploy, an open tab may ask for a chunk that no longer exists.
const isChunkLoadError = (error: unknown) =>
  error instanceof Error &&
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
    error.message,
  );

/** What a crashed screen shows instead of a blank page. */
export function RouteErrorView({ error }: { error: unknown }) {
  const isStale = isChunkLoadError(error);
  return (
    <Box sx={{ maxWidth: 640, mx: "auto", my: 6, px: 2 }}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        {isStale ? "Update available" : "Something went wrong"}
      </Typography>
      <Alert severity={isStale ? "info" : "error"} sx={{ mb: 3 }}>
        {isStale
          ? "A new version of Permitrack is available. Reload the page to continue."
          : "Something went wrong while showing this page."}
      </Alert>
      <Box sx={{ display: "flex", gap: 2 }}>
        <Button variant="contained" onClick={() => window.location.reload()}>
          Reload
        </Button>
        <Button href="/">Back to home</Button>
      </Box>
    </Box>
  );
}

interface BoundaryProps {
  resetKey: string;
  children: ReactNode;
}
interface BoundaryState {
  error: unknown;
  hasError: boolean;
  resetKey: string;
}

/** Catches render errors of one route; moving to another path clears it. */
class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey !== state.resetKey
      ? { error: null, hasError: false, resetKey: props.resetKey }
      : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (import.meta.env.DEV) console.error(error, info.componentStack);
  }

  override render() {
    return this.state.hasError ? <RouteErrorView error={this.state.error} /> : this.props.children;
  }
}

export function RouteBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary resetKey={pathname}>{children}</ErrorBoundary>;
}
