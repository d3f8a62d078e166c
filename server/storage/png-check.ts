/**
 * Whether bytes are a well-formed PNG: the signature, then chunks each with a length inside the
 * file and a right CRC-32, IHDR first (13 bytes), at least one IDAT, and IEND ending the file.
 * pdfkit's PNG reader spends seconds of CPU on a PNG with bytes after its image data before giving
 * up (issue 30): a logo is checked so when uploaded, and again before the compliance packet draws it,
 * since the packet is also drawn for anyone holding a status link.
 */

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function isWellFormedPng(bytes: Uint8Array): boolean {
  if (bytes.length < 8 || SIGNATURE.some((b, i) => bytes[i] !== b)) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let first = true;
  let sawData = false;
  while (at + 12 <= bytes.length) {
    const length = view.getUint32(at);
    const dataEnd = at + 8 + length;
    if (length > 0x7fffffff || dataEnd + 4 > bytes.length) return false;
    const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
    if (view.getUint32(dataEnd) !== crc32(bytes, at + 4, dataEnd)) return false;
    if (first && (type !== "IHDR" || length !== 13)) return false;
    first = false;
    if (type === "IDAT") sawData = true;
    at = dataEnd + 4;
    if (type === "IEND") return sawData && at === bytes.length;
  }
  return false;
}
