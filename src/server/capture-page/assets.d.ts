/** `import css from "./x.css" with { type: "text" }` gives the file's text (Bun text loader). */
declare module "*.css" {
  const text: string;
  export default text;
}
