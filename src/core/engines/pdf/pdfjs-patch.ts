/** One edit of pdf.js's worker code: an anchor that MUST occur exactly once, and the text that replaces it. */
export type Patch = [anchor: string, replacement: string];
