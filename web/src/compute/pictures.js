// A large map's pictures: its heat map painted in the compute worker, at the sizes the page's
// maps are drawn, so the page only draws a finished bitmap. A million cells max-pooled and
// coloured took 15-30 ms of the page's main thread per map, twice (the first screen's map and
// section 4's); in the worker it runs beside the core's own work.
//
// The page says which pictures it wants (createPictureWants): each map figure tells, as it
// draws, how many device pixels across its plot has for a large map (one too large for axis
// labels, so the plot's size does not depend on the map), and whether it follows the reader's
// "stretch" setting. A map call to the worker carries the list (wantedPictures), the worker paints them
// (paintPictures) and the answer carries them; a figure takes the one that fits its plot
// (pictureFor) and paints its own where none does (a resized plot, a map computed on the page).
import { heatPicture } from '../lib/heat-pixels.js';
import { largestWeight } from '../lib/map-statistics.js';

// Maps under this many cells the page paints itself: under a millisecond.
export const PICTURE_CELLS = 256 * 256;

// ---- the page: who wants which picture ----

export function createPictureWants() {
  const wants = new Map(); // figure -> { side, stretches }
  return {
    // side: the plot's width in device pixels for a large map; stretches: it follows the
    // reader's "stretch".
    want(figure, side, stretches) {
      wants.set(figure, { side, stretches });
    },
    // What to ask the worker for with a map of `state`: { side, top }, top 1 or 'largest'.
    wanted(state) {
      return [...wants.values()].map(({ side, stretches }) => ({
        side,
        top: stretches && state.stretch ? 'largest' : 1,
      }));
    },
  };
}

// The picture of `result` for a plot `side` device pixels across with colour top `top`: an
// ImageBitmap or a canvas, ready for drawImage; or null when the worker painted none that fits.
const canvases = new WeakMap(); // pixels -> the canvas made of them
export function pictureFor(result, side, top) {
  const width = Math.min(side, result.T);
  const picture = result.pictures?.find((p) => p.width === width && p.top === top);
  if (!picture) return null;
  if (!ArrayBuffer.isView(picture.image)) return picture.image;
  // A browser without createImageBitmap in workers sent the pixels themselves.
  if (!canvases.has(picture.image)) {
    const canvas = Object.assign(document.createElement('canvas'), { width, height: width });
    canvas.getContext('2d').putImageData(new ImageData(picture.image, width, width), 0, 0);
    canvases.set(picture.image, canvas);
  }
  return canvases.get(picture.image);
}

// ---- the worker: painting them ----

async function asImage(pixels, width) {
  if (typeof createImageBitmap !== 'function') return pixels;
  try {
    return await createImageBitmap(new ImageData(pixels, width, width));
  } catch {
    return pixels;
  }
}

// The pictures of a map result: [{ width, top, image }] for the distinct wanted sizes and
// tops (top 'largest' is the map's largest weight, as the page's stretched colour scale has
// it), none for a small map. image: an ImageBitmap, or the RGBA pixels where the worker
// cannot make one.
export async function paintPictures(result, wanted = []) {
  if (!result?.weights || result.T * result.T < PICTURE_CELLS) return [];
  const pictures = [];
  for (const { side, top } of wanted) {
    const width = Math.min(side, result.T);
    const value = top === 'largest' ? largestWeight(result) : top;
    if (pictures.some((p) => p.width === width && p.top === value)) continue;
    const pixels = heatPicture(result.weights, result.T, value, side);
    pictures.push({ width, top: value, image: await asImage(pixels, width) });
  }
  return pictures;
}
