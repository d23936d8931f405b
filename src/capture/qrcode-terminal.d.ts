/** Types for qrcode-terminal 0.12 (the package ships none). `generate` reads `this`: call it on the module. */
declare module "qrcode-terminal" {
  const qrcodeTerminal: {
    generate(input: string, opts: { small?: boolean }, cb: (qr: string) => void): void;
    setErrorLevel(level: "L" | "M" | "Q" | "H"): void;
  };
  export default qrcodeTerminal;
}
