/** swagger-ui-dist's files imported with `{ type: "text" }` give the file's text (Bun text loader). */
declare module "swagger-ui-dist/swagger-ui-bundle.js" {
  const text: string;
  export default text;
}
declare module "swagger-ui-dist/swagger-ui.css" {
  const text: string;
  export default text;
}
