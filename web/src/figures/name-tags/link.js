// The name-tag room's part of the page's link (web/src/link.js): where the reader left the
// query's tip (`room-x`, `room-y`) and the sharpness (`room-sharpness`, the factor every score
// is multiplied by). Pure. Only values that differ from the room's first view are written.
import { readKeys, writeKeys } from '../../link.js';
import { FACTOR_RANGE, LIMIT, round, START_QUERY } from './model.js';

export const ROOM_DEFAULTS = Object.freeze({ x: START_QUERY.x, y: START_QUERY.y, factor: 1 });

const NUMBER = /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/;

// The tip stays in the room, to the hundredth the handle moves by.
const coordinate = (key) => (raw) => {
  const value = NUMBER.test(raw) ? Number(raw) : Number.NaN;
  if (!(Math.abs(value) <= LIMIT))
    return { error: `${key} must be a number from −${LIMIT} to ${LIMIT}.` };
  return { value: round(value) };
};

function checkFactor(raw) {
  const { low, high } = FACTOR_RANGE;
  const factor = NUMBER.test(raw) ? Number(Number(raw).toPrecision(3)) : Number.NaN;
  if (!(factor >= low && factor <= high))
    return { error: `room-sharpness must be a number from ${low} to ${high}.` };
  return { value: factor };
}

const KEYS = {
  'room-x': { field: 'x', check: coordinate('room-x'), format: String },
  'room-y': { field: 'y', check: coordinate('room-y'), format: String },
  'room-sharpness': { field: 'factor', check: checkFactor, format: String },
};

function parse(params) {
  const { state, messages } = readKeys(params, KEYS, ROOM_DEFAULTS);
  return { state: Object.freeze(state), messages };
}

const serialize = (state) => writeKeys(state, KEYS, ROOM_DEFAULTS);

export const nameTagsLink = Object.freeze({ name: 'name-tags', parse, serialize });
