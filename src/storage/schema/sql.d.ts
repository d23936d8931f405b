/** `import sql from "./x.sql" with { type: "text" }` gives the file's text (Bun text loader). */
declare module "*.sql" {
  const text: string;
  export default text;
}
