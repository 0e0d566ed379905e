import { describe, expect, it } from 'vitest';
import { jpegWithMetadata, sampleJpeg } from '../test-support/jpeg-fixtures.js';
import { InvalidJpegError, stripJpegMetadata } from './jpeg.js';

describe('stripJpegMetadata', () => {
  it('drops EXIF (GPS, camera) and comments, keeps the image and its colour profile', () => {
    const { jpeg, info } = stripJpegMetadata(jpegWithMetadata());
    expect(info).toEqual({ width: 16, height: 12 });
    const text = jpeg.toString('latin1');
    expect(text).not.toContain('GPSLatitude');
    expect(text).not.toContain('taken at home');
    expect(text).toContain('ICC_PROFILE');
    expect(jpeg.equals(stripJpegMetadata(sampleJpeg).jpeg)).toBe(true);
    expect(jpeg.subarray(-2).equals(Buffer.from([0xff, 0xd9]))).toBe(true);
  });

  it('refuses what is not a whole JPEG', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    for (const input of [png, Buffer.alloc(0), sampleJpeg.subarray(0, 300), Buffer.from('ffd8ffe0', 'hex')]) {
      expect(() => stripJpegMetadata(input)).toThrow(InvalidJpegError);
    }
  });
});
