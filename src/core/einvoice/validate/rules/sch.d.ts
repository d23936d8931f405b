/** `import text from "./x.sch" with { type: "text" }` gives the file's text (Bun text loader). */
declare module "*.sch" {
  const text: string;
  export default text;
}
