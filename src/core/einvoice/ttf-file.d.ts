/** `import file from "x.ttf" with { type: "file" }` gives the font file's path (Bun file loader; embedded in the binary). */
declare module "*.ttf" {
  const path: string;
  export default path;
}
