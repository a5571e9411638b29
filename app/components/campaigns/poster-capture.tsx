/**
 * Capturing a video's poster in the browser (JS only): the video chosen in the form's video field
 * (or the stored one) plays here; "Use this frame as the poster" draws its current frame on a
 * canvas and puts the picture into the poster file field (DataTransfer), so the form uploads it
 * like a chosen file. Without JS nothing renders, and the poster field is the way.
 */
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

export function PosterCapture({ videoInputId, posterInputId, storedVideoUrl }: { videoInputId: string; posterInputId: string; storedVideoUrl: string | null }) {
  const { t } = useTranslation("campaignTargeting");
  const [enhanced, setEnhanced] = useState(false);
  const [src, setSrc] = useState<string | null>(storedVideoUrl);
  const [preview, setPreview] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => setEnhanced(typeof DataTransfer !== "undefined"), []);

  // A video chosen in the form replaces the stored one here.
  useEffect(() => {
    const input = document.getElementById(videoInputId) as HTMLInputElement | null;
    if (!input) return;
    let objectUrl: string | null = null;
    const onChange = () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
      const file = input.files?.[0];
      objectUrl = file ? URL.createObjectURL(file) : null;
      setSrc(objectUrl ?? storedVideoUrl);
      setMessage("");
    };
    input.addEventListener("change", onChange);
    return () => {
      input.removeEventListener("change", onChange);
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [videoInputId, storedVideoUrl]);

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  if (!enhanced || !src) return null;

  function capture() {
    const video = videoRef.current;
    const poster = document.getElementById(posterInputId) as HTMLInputElement | null;
    if (!video || !poster || !video.videoWidth || !video.videoHeight) {
      setMessage(t("creative.capture.notReady"));
      return;
    }
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext("2d");
    if (!context) {
      setMessage(t("creative.capture.failed"));
      return;
    }
    try {
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
    } catch {
      setMessage(t("creative.capture.failed"));
      return;
    }
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          setMessage(t("creative.capture.failed"));
          return;
        }
        const file = new File([blob], "poster.jpg", { type: "image/jpeg" });
        const transfer = new DataTransfer();
        transfer.items.add(file);
        poster.files = transfer.files;
        poster.dispatchEvent(new Event("change", { bubbles: true }));
        setPreview(URL.createObjectURL(blob));
        setMessage(t("creative.capture.done", { time: video.currentTime.toFixed(1) }));
      },
      "image/jpeg",
      0.9,
    );
  }

  return (
    <div className="poster-capture">
      <video ref={videoRef} src={src} controls muted playsInline preload="metadata" aria-label={t("creative.capture.videoLabel")} />
      <div className="poster-capture-actions">
        <button type="button" className="button" onClick={capture}>
          {t("creative.capture.button")}
        </button>
        <p role="status" className="field-help">
          {message}
        </p>
        {preview ? <img src={preview} alt={t("creative.capture.previewAlt")} className="creative-thumb" /> : null}
      </div>
    </div>
  );
}
