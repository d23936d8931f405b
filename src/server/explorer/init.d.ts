/** init.js is browser code embedded as text (index.ts); this only gives the text import a type. */
declare const text: string;
export default text;
