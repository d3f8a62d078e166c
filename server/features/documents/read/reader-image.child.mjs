// An image's size from its header (decision 0030), read before any decoding: an image of a huge pixel
// count (a decompression bomb) is refused before tesseract allocates it. PNG, JPEG and TIFF.

/** Above this many pixels an image is refused (a page at 600 dpi is about 34 million). */
export const MAX_IMAGE_PIXELS = 60_000_000;

/** { width, height } from the header, or null when the header is not one of the three formats'. */
export function imageSize(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(12) === 0x49484452)
    return { width: view.getUint32(16), height: view.getUint32(20) };
  if (bytes.length >= 4 && view.getUint16(0) === 0xffd8) return jpegSize(view);
  if (bytes.length >= 8 && (view.getUint32(0) === 0x49492a00 || view.getUint32(0) === 0x4d4d002a))
    return tiffSize(view, view.getUint16(0) === 0x4949);
  return null;
}

function jpegSize(view) {
  let at = 2;
  while (at + 9 < view.byteLength) {
    if (view.getUint8(at) !== 0xff) return null;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = view.getUint16(at + 2);
    // SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC) carry the frame's size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + length;
  }
  return null;
}

function tiffSize(view, little) {
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > view.byteLength) return null;
  const count = view.getUint16(ifd, little);
  let width = null;
  let height = null;
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > view.byteLength) return null;
    const tag = view.getUint16(entry, little);
    const type = view.getUint16(entry + 2, little);
    const value = type === 3 ? view.getUint16(entry + 8, little) : view.getUint32(entry + 8, little);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return width !== null && height !== null ? { width, height } : null;
}
