/** `import text from "./x.xsd" with { type: "text" }` gives the file's text (Bun text loader). */
declare module "*.xsd" {
  const text: string;
  export default text;
}
