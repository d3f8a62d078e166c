import { useState } from "react";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";

/** A company's logo in a fixed box, or its initials when it has none (or the image fails). */
export function CompanyLogo({ name, url, size = 40 }: { name: string; url: string | null; size?: number }) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (url && url !== failedUrl) {
    return (
      <Box
        component="img"
        src={url}
        alt={`${name} logo`}
        onError={() => setFailedUrl(url)}
        sx={{ width: size * 2, height: size, objectFit: "contain", flexShrink: 0 }}
      />
    );
  }
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join("");
  return (
    <Box sx={{ width: size * 2, display: "flex", justifyContent: "center", flexShrink: 0 }}>
      <Avatar
        variant="rounded"
        sx={{ width: size, height: size, bgcolor: "secondary.main", fontSize: size * 0.4 }}
        aria-hidden
      >
        {initials}
      </Avatar>
    </Box>
  );
}
