/**
 * What a separator sheet looks like from its text alone. Shared by the split stage and by PDF conversion (which
 * checks pages this sparse for images), so it lives in a module of its own with no imports.
 */

/** Characters of text (whitespace aside) beyond which a page cannot be a PATCH-T sheet. */
export const SHEET_MAX_TEXT = 400;
