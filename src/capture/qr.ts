/** QR codes of capture URLs: a self-contained SVG for the API, text for the terminal. */
import QRCode from "qrcode";

/** A standalone SVG (no external references) of `text`, error correction M, with the quiet zone. */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
}
