/**
 * A guard run on an uploaded MP4 before it is parsed (app/services/media.server.ts): every sample
 * table must hold what its header declares. MP4 parsers (mp4box included) trust a table's declared
 * count and allocate for it, so a 732-byte file whose `stsz` claims 4,294,967,295 samples took the
 * server to 2.3 GB and down. Here each count is checked against the bytes its box really has, the
 * media a constant sample size implies against the file's size, and a track's samples against
 * MAX_TRACK_SAMPLES (about 55 minutes at 30 frames a second, far beyond the 20 s an ad may last:
 * such a video is still measured and refused as too long).
 */

export const MAX_TRACK_SAMPLES = 100_000;

/** Boxes holding other boxes, walked into. */
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts", "mvex", "moof", "traf", "mfra"]);

/** Bytes of one entry of a table box whose payload is version/flags, a count, then the entries. */
const ENTRY_BYTES: Record<string, number> = { stts: 8, ctts: 8, stsc: 12, stco: 4, co64: 8, stss: 4, stps: 4 };

/** Whether every sample table of the file fits in its box and the file (false: do not parse it). */
export function mp4TablesFit(bytes: Uint8Array, maxSamples = MAX_TRACK_SAMPLES): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fragmentSamples = 0;

  const walk = (start: number, end: number): boolean => {
    let at = start;
    while (at + 8 <= end) {
      let size = view.getUint32(at);
      const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
      let header = 8;
      if (size === 1) {
        if (at + 16 > end) return false;
        const large = view.getBigUint64(at + 8);
        if (large > BigInt(end - at)) return false;
        size = Number(large);
        header = 16;
      } else if (size === 0) {
        size = end - at;
      }
      if (size < header || at + size > end) {
        // A box running past the file's end: only a trailing media box may be cut (a partial upload is refused later).
        if (type === "mdat") return true;
        return false;
      }
      const payload = at + header;
      const length = size - header;
      if (CONTAINERS.has(type)) {
        if (!walk(payload, at + size)) return false;
      } else if (!tableFits(type, payload, length)) {
        return false;
      }
      at += size;
    }
    return true;
  };

  const u32 = (offset: number) => view.getUint32(offset);

  function tableFits(type: string, p: number, length: number): boolean {
    const entryBytes = ENTRY_BYTES[type];
    if (entryBytes !== undefined) {
      if (length < 8) return false;
      const count = u32(p + 4);
      if (count * entryBytes > length - 8) return false;
      // Time-to-sample and composition tables each say how many samples their entries cover.
      if (type === "stts" || type === "ctts") {
        let samples = 0;
        for (let i = 0; i < count; i++) {
          samples += u32(p + 8 + i * 8);
          if (samples > maxSamples) return false;
        }
      }
      return true;
    }
    switch (type) {
      case "stsz": {
        if (length < 12) return false;
        const sampleSize = u32(p + 4);
        const count = u32(p + 8);
        if (count > maxSamples) return false;
        return sampleSize === 0 ? count * 4 <= length - 12 : count * sampleSize <= bytes.byteLength;
      }
      case "stz2": {
        if (length < 12) return false;
        const fieldBits = bytes[p + 7]!;
        const count = u32(p + 8);
        if (count > maxSamples || ![4, 8, 16].includes(fieldBits)) return false;
        return Math.ceil((count * fieldBits) / 8) <= length - 12;
      }
      case "elst": {
        if (length < 8) return false;
        const count = u32(p + 4);
        return count * (bytes[p] === 1 ? 20 : 12) <= length - 8;
      }
      case "trun": {
        if (length < 8) return false;
        const flags = u32(p) & 0xffffff;
        const count = u32(p + 4);
        fragmentSamples += count;
        if (count > maxSamples || fragmentSamples > maxSamples) return false;
        const optional = (flags & 0x1 ? 4 : 0) + (flags & 0x4 ? 4 : 0);
        const perSample = [0x100, 0x200, 0x400, 0x800].filter((bit) => flags & bit).length * 4;
        return 8 + optional + count * perSample <= length;
      }
      default:
        return true;
    }
  }

  return walk(0, bytes.byteLength);
}
