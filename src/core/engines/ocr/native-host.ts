/**
 * A long-running tesseract host: a child process that loads libtesseract once (bun:ffi, the library the `tesseract`
 * CLI itself runs on) and reads page after page sent over stdin (native-frames.ts), answering each with tesseract's
 * TSV. It does what `tesseract stdin stdout --psm P --dpi D -c tessedit_create_tsv=1` does per image, without
 * starting a process and loading the model for each: measured on the bench's 300-DPI pages, 0.15-0.3 s of CPU less
 * per page (model loading, PNG/PGM decoding), and single lines of the OCR second look cost only their recognition.
 * It is a process of its own, not a thread: tesseract stops the whole process on an internal assertion, and that
 * must end one page's reading, not docproc. Started by native-hosts.ts with OMP_THREAD_LIMIT=1.
 *
 * Request header: { bytes, width, height, datapath, lang, psm, dpi? } + width × height grey pixels.
 * Answer header: { bytes, ok: true } + TSV (UTF-8), or { bytes: 0, ok: false, error }.
 * The first answer, sent before any request, is { ok, version } or { ok: false, error } when the library is missing.
 */
import { CString, dlopen, FFIType, ptr } from "bun:ffi";
import { encodeFrame, FrameReader, type FrameHeader } from "./native-frames.ts";

const LIBRARIES = ["libtesseract.so.5", "libtesseract.so", "libtesseract.5.dylib", "libtesseract.dylib"];
/** tesseract's OEM_LSTM_ONLY, what the CLI's `--oem 1` selects. */
const OEM_LSTM_ONLY = 1;

const SYMBOLS = {
  TessVersion: { args: [], returns: FFIType.cstring },
  TessBaseAPICreate: { args: [], returns: FFIType.ptr },
  TessBaseAPIInit2: { args: [FFIType.ptr, FFIType.cstring, FFIType.cstring, FFIType.i32], returns: FFIType.i32 },
  TessBaseAPIEnd: { args: [FFIType.ptr], returns: FFIType.void },
  TessBaseAPIDelete: { args: [FFIType.ptr], returns: FFIType.void },
  TessBaseAPISetVariable: { args: [FFIType.ptr, FFIType.cstring, FFIType.cstring], returns: FFIType.i32 },
  TessBaseAPISetPageSegMode: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.void },
  TessBaseAPISetImage: {
    args: [FFIType.ptr, FFIType.ptr, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i32],
    returns: FFIType.void,
  },
  TessBaseAPIRecognize: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  TessBaseAPIGetTsvText: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.ptr },
  TessDeleteText: { args: [FFIType.ptr], returns: FFIType.void },
  TessBaseAPIClear: { args: [FFIType.ptr], returns: FFIType.void },
} as const;

type Tess = ReturnType<typeof dlopen<typeof SYMBOLS>>["symbols"];

const cstr = (s: string) => Buffer.from(`${s}\0`);

function openLibrary(): Tess {
  let last: unknown;
  for (const name of LIBRARIES) {
    try {
      return dlopen(name, SYMBOLS).symbols;
    } catch (err) {
      last = err;
    }
  }
  throw new Error(`libtesseract could not be loaded: ${String((last as Error)?.message ?? last)}`);
}

interface Request extends FrameHeader {
  width: number;
  height: number;
  datapath: string;
  lang: string;
  psm: number;
  dpi?: number;
}

/**
 * Models kept loaded at once: a document read in English first and then again with its own language (the OCR
 * stage's language choice) switches between two, and reloading a model costs more than reading a line.
 */
const MODELS_KEPT = 3;

class Reader {
  /** One initialised API per model (datapath + languages), the most recently used last. */
  private readonly apis = new Map<string, NonNullable<ReturnType<Tess["TessBaseAPICreate"]>>>();

  constructor(private readonly tess: Tess) {}

  private apiFor(req: Request) {
    const { tess } = this;
    const model = `${req.datapath}\n${req.lang}`;
    const hit = this.apis.get(model);
    if (hit) {
      this.apis.delete(model);
      this.apis.set(model, hit);
      return hit;
    }
    if (this.apis.size >= MODELS_KEPT) {
      const [oldest, api] = this.apis.entries().next().value!;
      this.apis.delete(oldest);
      tess.TessBaseAPIEnd(api);
      tess.TessBaseAPIDelete(api);
    }
    const api = tess.TessBaseAPICreate()!;
    if (tess.TessBaseAPIInit2(api, cstr(req.datapath), cstr(req.lang), OEM_LSTM_ONLY) !== 0) {
      tess.TessBaseAPIDelete(api);
      throw new Error(`tesseract could not load ${req.lang} from ${req.datapath}`);
    }
    tess.TessBaseAPISetVariable(api, cstr("debug_file"), cstr("/dev/null"));
    this.apis.set(model, api);
    return api;
  }

  read(req: Request, pixels: Uint8Array): string {
    const { tess } = this;
    const api = this.apiFor(req);
    if (pixels.length < req.width * req.height || req.width < 1 || req.height < 1)
      throw new Error("pixel data does not match the image size");
    tess.TessBaseAPISetPageSegMode(api, req.psm);
    // As the CLI's --dpi: without it tesseract estimates the resolution from the text's x-height.
    tess.TessBaseAPISetVariable(api, cstr("user_defined_dpi"), cstr(String(req.dpi ? Math.round(req.dpi) : 0)));
    tess.TessBaseAPISetImage(api, ptr(pixels), req.width, req.height, 1, req.width);
    try {
      if (tess.TessBaseAPIRecognize(api, null) !== 0) throw new Error("tesseract could not recognise the image");
      const text = tess.TessBaseAPIGetTsvText(api, 0);
      if (!text) return "";
      try {
        return new CString(text).toString();
      } finally {
        tess.TessDeleteText(text);
      }
    } finally {
      tess.TessBaseAPIClear(api);
    }
  }
}

async function main(): Promise<void> {
  const out = Bun.stdout.writer();
  const send = (header: Record<string, unknown>, payload = new Uint8Array(0)) => {
    out.write(encodeFrame({ ...header, bytes: payload.length }, payload));
    out.flush();
  };
  let reader: Reader;
  try {
    const tess = openLibrary();
    reader = new Reader(tess);
    send({ ok: true, version: String(tess.TessVersion()) });
  } catch (err) {
    send({ ok: false, error: String((err as Error)?.message ?? err) });
    process.exit(0);
  }
  const frames = new FrameReader();
  // Ends with stdin: the parent closed it, or died.
  const input = Bun.stdin.stream().getReader();
  for (let r = await input.read(); !r.done; r = await input.read()) {
    frames.push(r.value);
    for (let f = frames.next(); f; f = frames.next()) {
      try {
        send({ ok: true }, new TextEncoder().encode(reader.read(f.header as Request, f.payload)));
      } catch (err) {
        send({ ok: false, error: String((err as Error)?.message ?? err) });
      }
    }
  }
  process.exit(0);
}

if (import.meta.main) await main();
