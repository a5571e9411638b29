/**
 * Measuring media on the server, in JavaScript only: no ffmpeg or other native binary is
 * installed or downloaded, so the console runs wherever Node does.
 * - Videos: MP4 (ISO-BMFF) read by mp4box (GPAC's parser): the duration and the picture size
 *   come from the file's own boxes (mvhd, mehd, tkhd, mdhd, the sample tables and, in a
 *   fragmented file, the fragments), never from what the browser says.
 * - Images: width and height by image-size, from the headers, without decoding the picture.
 *
 * What is measured here is judged by the pure rules of app/domain/media.ts.
 */
import { mp4TablesFit } from "~/domain/mp4-tables";
import { imageSize } from "image-size";
import { createFile, MP4BoxBuffer, type Movie, type Track } from "mp4box";
import {
  checkImageDimensions,
  IMAGE_TYPES,
  isCompleteImage,
  MAX_IMAGE_SIDE_BY_USE,
  normaliseDeclaredType,
  resolveMediaType,
  sniffMediaType,
  type ImageType,
  type MediaFailure,
  type RefusedType,
} from "~/domain/media";

export type VideoMeasurement =
  | { ok: true; mime: "video/mp4"; durationSeconds: number; width: number; height: number }
  | MediaFailure;

export type ImageMeasurement = { ok: true; mime: ImageType | "image/svg+xml"; width: number; height: number } | MediaFailure;

const failure = (reason: MediaFailure["reason"]): MediaFailure => ({ ok: false, reason });

/** mp4box's own box objects, as far as this file reads them (sample tables of a trak). */
interface ParsedTrak {
  tkhd?: { track_id?: number };
  mdia?: { mdhd?: { timescale?: number }; minf?: { stbl?: { stts?: { sample_counts?: ArrayLike<number>; sample_deltas?: ArrayLike<number> } } } };
}

function positive(value: number | undefined | null): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Seconds of a duration in ticks of a timescale; 0 when either is missing or absurd. */
function seconds(duration: number | undefined, timescale: number | undefined): number {
  const d = positive(duration);
  const t = positive(timescale);
  return d && t ? d / t : 0;
}

/** The sum of a track's sample table (stts): every sample's duration, the last one included. */
function sampleTableSeconds(trak: ParsedTrak | undefined): number {
  const stts = trak?.mdia?.minf?.stbl?.stts;
  const counts = stts?.sample_counts;
  const deltas = stts?.sample_deltas;
  if (!counts || !deltas) return 0;
  let ticks = 0;
  for (let i = 0; i < Math.min(counts.length, deltas.length); i++) ticks += positive(counts[i]) * positive(deltas[i]);
  return seconds(ticks, trak?.mdia?.mdhd?.timescale);
}

/**
 * The length of the movie: the longest of every duration the file states (movie header, movie
 * extends header of a fragmented file, each track's media and movie durations, and each track's
 * samples). A file cannot pass the 20 s rule by leaving its headers at 0.
 */
function movieSeconds(info: Movie, traks: ParsedTrak[]): number {
  const candidates = [seconds(info.duration, info.timescale)];
  if (info.fragment_duration) candidates.push(seconds(info.fragment_duration.num, info.fragment_duration.den));
  for (const track of info.tracks) {
    candidates.push(
      seconds(track.duration, track.timescale),
      seconds(track.movie_duration, track.movie_timescale),
      seconds(track.samples_duration, track.timescale),
    );
  }
  for (const trak of traks) candidates.push(sampleTableSeconds(trak));
  return Math.max(...candidates);
}

/** Presentation size: the track header's (after any crop), turned by a 90 or 270 degree matrix. */
function displaySize(track: Track): { width: number; height: number } {
  let width = Math.round(positive(track.track_width)) || positive(track.video?.width);
  let height = Math.round(positive(track.track_height)) || positive(track.video?.height);
  const m = track.matrix;
  if (m && m.length >= 5 && m[0] === 0 && m[4] === 0 && (m[1] !== 0 || m[3] !== 0)) [width, height] = [height, width];
  return { width, height };
}

function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.slice().buffer as ArrayBuffer;
}

/**
 * The duration and picture size of an MP4 video. `mime` is the type the browser declared:
 * empty or application/octet-stream lets the content decide; another type than the content's is
 * refused. WebM and QuickTime files are refused as unsupported.
 */
export function measureVideo(bytes: Uint8Array, mime: string | null | undefined): VideoMeasurement {
  if (bytes.byteLength === 0) return failure("media:errors.empty");
  const sniffed = sniffMediaType(bytes);
  const declared = normaliseDeclaredType(mime);
  if (!sniffed && declared === "video/mp4") return failure("media:errors.unreadableVideo");
  const type = resolveMediaType("video", mime, sniffed);
  if (!type.ok) return type;

  // Declared counts are checked before the parser allocates for them (a forged table took the server down).
  if (!mp4TablesFit(bytes)) return failure("media:errors.unreadableVideo");
  const file = createFile();
  let info: Movie | null = null;
  let parseError = false;
  file.onError = () => {
    parseError = true;
  };
  file.onReady = (movie) => {
    info = movie;
  };
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(arrayBufferOf(bytes), 0), true);
    file.flush();
  } catch {
    return failure("media:errors.unreadableVideo");
  }
  const movie = info as Movie | null;
  if (!movie || parseError) return failure("media:errors.unreadableVideo");
  const track = movie.videoTracks[0];
  if (!track) return failure("media:errors.noVideoTrack");
  const traks = ((file as unknown as { moov?: { traks?: ParsedTrak[] } }).moov?.traks ?? []) as ParsedTrak[];
  const durationSeconds = movieSeconds(movie, traks);
  const { width, height } = displaySize(track);
  if (!(durationSeconds > 0) || !(width > 0) || !(height > 0)) return failure("media:errors.unreadableVideo");
  return { ok: true, mime: "video/mp4", durationSeconds, width, height };
}

const IMAGE_SIZE_TYPES: Record<string, ImageType | "image/svg+xml"> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  svg: "image/svg+xml",
};

/**
 * The width and height of a PNG, JPEG, WebP, GIF (or SVG, measured but never accepted as an
 * upload) image, as displayed: a JPEG whose EXIF orientation turns it gets its sides swapped.
 */
export function measureImage(bytes: Uint8Array, mime: string | null | undefined): ImageMeasurement {
  if (bytes.byteLength === 0) return failure("media:errors.empty");
  const sniffed: ImageType | RefusedType | "video/mp4" | null = sniffMediaType(bytes);
  const declared = normaliseDeclaredType(mime);
  if (sniffed !== "image/svg+xml") {
    if (!sniffed && (IMAGE_TYPES as readonly string[]).includes(declared)) return failure("media:errors.unreadableImage");
    const type = resolveMediaType("image", mime, sniffed);
    if (!type.ok) return type;
  } else if (declared && declared !== "image/svg+xml" && declared !== "application/octet-stream") {
    return failure("media:errors.typeMismatch");
  }
  let measured: ReturnType<typeof imageSize>;
  try {
    measured = imageSize(bytes);
  } catch {
    return failure("media:errors.unreadableImage");
  }
  const measuredType = IMAGE_SIZE_TYPES[measured.type ?? ""];
  if (!measuredType || measuredType !== sniffed) return failure("media:errors.unreadableImage");
  // A signature and a header are not an image: the file must be whole.
  if (measuredType !== "image/svg+xml" && !isCompleteImage(bytes, measuredType)) return failure("media:errors.unreadableImage");
  let width = positive(measured.width);
  let height = positive(measured.height);
  if (!width || !height) return failure("media:errors.unreadableImage");
  // EXIF orientations 5 to 8 turn the picture by 90 degrees.
  if ((measured.orientation ?? 1) >= 5) [width, height] = [height, width];
  return { ok: true, mime: measuredType, width, height };
}

/**
 * An uploaded image of a use (a campaign image kind, or a team logo): PNG, JPEG, WebP or GIF,
 * whole, and no larger in pixels than the use needs, all read from the headers before anything
 * decodes it.
 */
export function checkUploadedImage(
  bytes: Uint8Array,
  mime: string | null | undefined,
  use: keyof typeof MAX_IMAGE_SIDE_BY_USE,
): ImageMeasurement {
  const image = measureImage(bytes, mime);
  if (!image.ok) return image;
  if (!(IMAGE_TYPES as readonly string[]).includes(image.mime)) return failure("media:errors.unsupportedImageType");
  const dimensions = checkImageDimensions(image.width, image.height, use);
  return dimensions.ok ? image : dimensions;
}
