import type { Storage } from "../../storage/storage.ts";

export const PHOTO_REQUIRED = "The evidence must be a photo (JPEG, PNG, WebP or HEIC).";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

/** The image type the bytes really are (a phone camera's JPEG or HEIC, PNG, WebP), whatever the name says. */
export function sniffPhoto(bytes: Buffer): string | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG)) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (
    bytes.length >= 12 &&
    bytes.toString("latin1", 0, 4) === "RIFF" &&
    bytes.toString("latin1", 8, 12) === "WEBP"
  )
    return "image/webp";
  if (bytes.length >= 12 && bytes.toString("latin1", 4, 8) === "ftyp") {
    const brand = bytes.toString("latin1", 8, 12);
    if (HEIF_BRANDS.has(brand)) return brand.startsWith("he") ? "image/heic" : "image/heif";
  }
  return null;
}

/** The stored file's photo type from its first bytes, or null when it is no photo. */
export async function photoTypeOf(storage: Storage, key: string): Promise<string | null> {
  const chunks: Buffer[] = [];
  let length = 0;
  const stream = storage.read(key);
  try {
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= 16) break;
    }
  } finally {
    stream.destroy();
  }
  return sniffPhoto(Buffer.concat(chunks));
}
