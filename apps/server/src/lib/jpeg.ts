export class InvalidJpegError extends Error {}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP2 = 0xe2;
const APP14 = 0xee;
const COM = 0xfe;

function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Segments worth keeping: JFIF header, ICC colour profile, Adobe colour transform. */
function keepsAppSegment(marker: number, body: Buffer): boolean {
  if (marker === APP0 || marker === APP14) return true;
  return marker === APP2 && body.subarray(0, 12).toString('latin1') === 'ICC_PROFILE\0';
}

export interface JpegInfo {
  width: number;
  height: number;
}

/**
 * Checks that the bytes are a well-formed JPEG and returns them without metadata: EXIF and XMP
 * (camera, time, GPS position), comments and vendor segments are dropped; the image data is
 * copied untouched.
 */
export function stripJpegMetadata(input: Buffer): { jpeg: Buffer; info: JpegInfo } {
  if (input.length < 4 || input[0] !== 0xff || input[1] !== SOI)
    throw new InvalidJpegError('not a JPEG file');
  const kept: Buffer[] = [input.subarray(0, 2)];
  let offset = 2;
  let info: JpegInfo | undefined;
  for (;;) {
    if (offset + 4 > input.length || input[offset] !== 0xff)
      throw new InvalidJpegError('damaged JPEG segment');
    const marker = input[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    const length = input.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > input.length) throw new InvalidJpegError('damaged JPEG segment');
    const segment = input.subarray(offset, offset + 2 + length);
    const body = segment.subarray(4);
    if (isStartOfFrame(marker)) {
      if (body.length < 5) throw new InvalidJpegError('damaged JPEG frame header');
      info = { height: body.readUInt16BE(1), width: body.readUInt16BE(3) };
    }
    const isMetadata = (marker >= 0xe1 && marker <= 0xef && !keepsAppSegment(marker, body)) || marker === COM;
    if (!isMetadata) kept.push(segment);
    offset += 2 + length;
    if (marker === SOS) break;
  }
  if (!info || info.width === 0 || info.height === 0)
    throw new InvalidJpegError('JPEG without image dimensions');
  // After the scan header comes entropy-coded data up to the end-of-image marker.
  const end = input.lastIndexOf(Buffer.from([0xff, EOI]));
  if (end < offset) throw new InvalidJpegError('JPEG without end of image');
  kept.push(input.subarray(offset, end + 2));
  return { jpeg: Buffer.concat(kept), info };
}
