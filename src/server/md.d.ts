/** `import text from "./x.md" with { type: "text" }` gives the file's text (Bun text loader). */
declare module "*.md" {
  const text: string;
  export default text;
}
