/**
 * Deepest nesting of arrays and objects an intake frame may have, counted from the frame itself. The frame
 * is re-serialised on its way to the host, and JSON.stringify overflows the stack a few thousand levels
 * down (under 5,000 in Node 20); real SDK messages nest about a dozen. Not a setting: no value above the
 * serialiser's own limit would work.
 */
export const INTAKE_MAX_DEPTH = 256;
