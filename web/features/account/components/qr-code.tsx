import { useMemo } from "react";
import Box from "@mui/material/Box";
import qrcode from "qrcode-generator";

/**
 * A QR code drawn in the browser as an SVG image in a data: URL (the CSP allows data: images and
 * no inline script), always dark on white so that phone cameras read it in the dark theme too.
 */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const src = useMemo(() => {
    const qr = qrcode(0, "M");
    qr.addData(value);
    qr.make();
    const svg = qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true });
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  }, [value]);
  return (
    <Box
      component="img"
      src={src}
      alt={label}
      width={size}
      height={size}
      sx={{ display: "block", bgcolor: "#fff", borderRadius: 1, border: 1, borderColor: "divider" }}
    />
  );
}
