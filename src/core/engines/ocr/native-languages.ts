/**
 * Which tessdata directory and languages the native engine reads with, per requested language set (see
 * NativeLanguageChoice).
 */
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chooseLanguages, missingLanguageWarning, traineddataIn } from "./languages.ts";
import type { NativeOptions } from "./native-cli.ts";
import { pushAll } from "../../arrays";

/**
 * Per language set: the tessdata directory to pass and the languages to ask for. English (and any language in
 * docproc's own tessdata) comes from there; other languages from the system's tessdata, through a cache folder of
 * symbolic links that holds both (tesseract takes one directory). Decided once per set.
 */
export interface NativeLanguageChoice {
  opts: NativeOptions;
  use: string[];
  warning: string | null;
}

export function nativeLanguages(opts: NativeOptions): (requested?: readonly string[]) => NativeLanguageChoice {
  const memo = new Map<string, NativeLanguageChoice>();
  return (requested) => {
    const key = (requested ?? []).join("+");
    const hit = memo.get(key);
    if (hit) return hit;
    const own = (l: string) => traineddataIn(opts.tessdataDir, l)?.gzip === false;
    const system = (l: string) => traineddataIn(opts.systemTessdataDir, l)?.gzip === false;
    const choice = chooseLanguages(requested, (l) => own(l) || system(l));
    const fromSystem = choice.use.filter((l) => !own(l));
    let dir = opts.tessdataDir;
    if (fromSystem.length) {
      try {
        dir = combinedTessdataDir(opts, choice.use.filter(own), fromSystem);
      } catch {
        // no writable cache: read with docproc's own languages only
        pushAll(choice.missing, fromSystem);
        choice.use = choice.use.filter(own);
        if (choice.use.length === 0) choice.use = ["eng"];
      }
    }
    const out = {
      opts: { ...opts, tessdataDir: dir },
      use: choice.use,
      warning: choice.missing.length ? missingLanguageWarning("native", choice) : null,
    };
    memo.set(key, out);
    return out;
  };
}

function combinedTessdataDir(opts: NativeOptions, own: string[], fromSystem: string[]): string {
  const root = opts.cacheDir ?? tmpdir();
  const tag = Bun.hash(`${opts.tessdataDir}|${opts.systemTessdataDir}`).toString(36);
  const dir = path.join(root, `docproc-tessdata-langs-${tag}`);
  fs.mkdirSync(dir, { recursive: true });
  const link = (target: string, name: string) => {
    const at = path.join(dir, name);
    if (fs.existsSync(at)) return;
    const tmp = `${at}.${process.pid}.${Date.now()}.tmp`;
    fs.symlinkSync(target, tmp);
    fs.renameSync(tmp, at); // concurrent callers race safely: the last rename wins with the same target
  };
  for (const l of own) link(path.join(opts.tessdataDir, `${l}.traineddata`), `${l}.traineddata`);
  for (const l of fromSystem) link(path.join(opts.systemTessdataDir!, `${l}.traineddata`), `${l}.traineddata`);
  return dir;
}
