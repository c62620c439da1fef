// Frames of the bare baselines, as many bytes as the product's: a baseline frame shorter than
// `bytes` gets a `"pad"` field of spaces that brings it to that length, so both servers write
// the same amount per frame. `bytes` 0 (or a frame already that long) leaves the frame as is.
'use strict';

const PAD_FIELD_BYTES = ',"pad":""'.length;

/** `text` (a JSON object) as a Buffer of at least `bytes` bytes. */
function paddedFrame(text, bytes) {
  const missing = bytes - Buffer.byteLength(text) - PAD_FIELD_BYTES;
  if (missing < 0) return Buffer.from(text);
  return Buffer.from(`${text.slice(0, -1)},"pad":"${' '.repeat(missing)}"}`);
}

module.exports = { paddedFrame };
