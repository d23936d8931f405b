/**
 * The token reader of the Lexer patch group (LEXER, pdfjs-lexer-patches.ts), kept in its own module for its length;
 * the same contract: exactly the tokens, positions and warnings of stock pdf.js.
 */

/**
 * Whole tokens read from the buffer in local variables. The new getObj reads the token the stock one would read,
 * from the same bytes (`currentChar`, then `bytes[pos]`, `bytes[pos + 1]`, ...), with the same arithmetic and the
 * same string; it changes the lexer and the stream (`currentChar`, `pos`, `beginInlineImagePos`) only once the
 * token is complete, to what the stock getObj leaves. It gives up, having changed nothing, and lets the stock getObj
 * (now getObjStock) read the token from its start wherever that one would do anything else than read a byte: the
 * end of the bytes at hand (end of data, a decoder's next block), a comment, a warning or info (a minus sign inside
 * a number, a number without digits, `#` in a name, an invalid hex digit, a name over 127 chars), an error (a lone
 * `)`), a command of more than 6 chars or starting below 0x20 or above 0x7F (stock peeks ahead there), a string of
 * more than 4,096 chars.
 * - Strings are built from char codes in one String.fromCharCode call instead of one string per char and a join.
 * - A command (a run of regular chars) is what pdf.js's loop over the known operators makes of that run, nothing
 *   else: the answer per run (at most 6 bytes, none of them 0, so the run is one exact integer key) is kept per
 *   known-operator table (pdf.js never changes one) instead of a string concatenation and a property lookup per
 *   char. Cmd.get still makes the Cmd, so pdf.js's own Cmd cache stays the only one.
 * - Names of at most 6 bytes are looked up by the same kind of key before a string is made of them.
 */
export const GET_OBJ_FAST = `  getObj() {
    fast: if (this.byteKind !== 0) {
      const s = this.stream;
      const bytes = this.byteKind !== 2 ? s.bytes : s.buffer;
      let limit = this.byteKind !== 2 ? s.end : s.bufferLength;
      if (!(limit <= bytes.length)) limit = bytes.length;
      let p = s.pos, ch = this.currentChar;
      if (!Number.isInteger(p) || p < 0) break fast;
      while (specialChars[ch] === 1) {
        if (p >= limit) break fast;
        ch = bytes[p++];
      }
      if (ch >= 0x30 && ch <= 0x39 || ch === 0x2d || ch === 0x2b || ch === 0x2e) {
        let divideBy = 0, sign = 1;
        if (ch === 0x2d) {
          sign = -1;
          if (p >= limit) break fast;
          ch = bytes[p++];
          if (ch === 0x2d) {
            if (p >= limit) break fast;
            ch = bytes[p++];
          }
        } else if (ch === 0x2b) {
          if (p >= limit) break fast;
          ch = bytes[p++];
        }
        while (ch === 0x0a || ch === 0x0d) {
          if (p >= limit) break fast;
          ch = bytes[p++];
        }
        if (ch === 0x2e) {
          divideBy = 10;
          if (p >= limit) break fast;
          ch = bytes[p++];
        }
        if (ch < 0x30 || ch > 0x39) break fast;
        let baseValue = ch - 0x30;
        while (true) {
          if (p >= limit) break fast;
          ch = bytes[p++];
          if (ch >= 0x30 && ch <= 0x39) {
            const currentDigit = ch - 0x30;
            if (divideBy !== 0) {
              divideBy *= 10;
            }
            baseValue = baseValue * 10 + currentDigit;
          } else if (ch === 0x2e) {
            if (divideBy === 0) {
              divideBy = 1;
            } else {
              break;
            }
          } else if (ch === 0x2d) {
            break fast;
          } else {
            break;
          }
        }
        if (divideBy !== 0) {
          baseValue /= divideBy;
        }
        this.currentChar = ch;
        s.pos = p;
        return sign * baseValue;
      }
      if (specialChars[ch] === 0 && ch >= 0x20 && ch <= 0x7f) {
        let key = ch, scale = 256, q = p, c;
        while (true) {
          if (q >= limit) break fast;
          c = bytes[q++];
          if (specialChars[c]) break;
          if (scale === 0x1000000000000) break fast;
          key += c * scale;
          scale *= 256;
        }
        const cache = this.commandCache;
        let str = cache.get(key);
        if (str === undefined) {
          str = resolveCommand(this.knownCommands, key);
          if (cache.size >= 4096) cache.clear();
          cache.set(key, str);
        }
        p += str.length;
        this.currentChar = bytes[p - 1];
        s.pos = p;
        if (str === "true") return true;
        if (str === "false") return false;
        if (str === "null") return null;
        if (str === "BI") this.beginInlineImagePos = p;
        return Cmd.get(str);
      }
      const obj = this.getObjFast(bytes, limit, p, ch);
      if (obj !== undefined) return obj;
    }
    return this.getObjStock();
  }
  getObjFast(bytes, limit, p, ch) {
    const s = this.stream;
    switch (ch) {
      case 0x28:
        return this.fastString(bytes, limit, p);
      case 0x2f:
        return this.fastName(bytes, limit, p);
      case 0x5b: case 0x5d: case 0x7b: case 0x7d:
        if (p >= limit) return undefined;
        this.currentChar = bytes[p];
        s.pos = p + 1;
        return Cmd.get(ch === 0x5b ? "[" : ch === 0x5d ? "]" : ch === 0x7b ? "{" : "}");
      case 0x3c:
        if (p >= limit) return undefined;
        if (bytes[p] === 0x3c) {
          if (p + 1 >= limit) return undefined;
          this.currentChar = bytes[p + 1];
          s.pos = p + 2;
          return Cmd.get("<<");
        }
        return this.fastHexString(bytes, limit, p);
      case 0x3e:
        if (p >= limit) return undefined;
        if (bytes[p] === 0x3e) {
          if (p + 1 >= limit) return undefined;
          this.currentChar = bytes[p + 1];
          s.pos = p + 2;
          return Cmd.get(">>");
        }
        this.currentChar = bytes[p];
        s.pos = p + 1;
        return Cmd.get(">");
    }
    return undefined;
  }
  fastName(bytes, limit, p) {
    const start = p;
    let key = 0, scale = 1, ch;
    while (true) {
      if (p >= limit) return undefined;
      ch = bytes[p++];
      if (specialChars[ch]) break;
      if (ch === 0x23) return undefined;
      key += ch * scale;
      scale *= 256;
    }
    let str;
    if (p - 1 - start <= 6) {
      str = lexerNameCache.get(key);
      if (str === undefined) {
        str = String.fromCharCode.apply(null, bytes.subarray(start, p - 1));
        if (lexerNameCache.size >= 4096) lexerNameCache.clear();
        lexerNameCache.set(key, str);
      }
    } else if (p - 1 - start > 127) {
      return undefined;
    } else {
      str = String.fromCharCode.apply(null, bytes.subarray(start, p - 1));
    }
    const name = Name.get(str);
    this.currentChar = ch;
    this.stream.pos = p;
    return name;
  }
  fastHexString(bytes, limit, p) {
    const codes = lexerCodes;
    let n = 0, firstDigit = -1, ch = bytes[p++];
    while (ch !== 0x3e) {
      const digit = lexerHexDigits[ch];
      if (digit === -1) return undefined;
      if (digit >= 0) {
        if (firstDigit === -1) {
          firstDigit = digit;
        } else {
          if (n === 4096) return undefined;
          codes[n++] = firstDigit << 4 | digit;
          firstDigit = -1;
        }
      }
      if (p >= limit) return undefined;
      ch = bytes[p++];
    }
    if (p >= limit) return undefined;
    if (firstDigit !== -1) {
      if (n === 4096) return undefined;
      codes[n++] = firstDigit << 4;
    }
    this.currentChar = bytes[p++];
    this.stream.pos = p;
    this._hexStringNumWarn = 0;
    return codesToString(codes, n);
  }
  fastString(bytes, limit, p) {
    const codes = lexerCodes;
    let n = 0, numParen = 1;
    if (p >= limit) return undefined;
    let ch = bytes[p++];
    while (true) {
      let charBuffered = false, code = ch;
      if (ch === 0x28) {
        ++numParen;
      } else if (ch === 0x29) {
        if (--numParen === 0) {
          if (p >= limit) return undefined;
          this.currentChar = bytes[p++];
          this.stream.pos = p;
          return codesToString(codes, n);
        }
      } else if (ch === 0x5c) {
        if (p >= limit) return undefined;
        ch = bytes[p++];
        switch (ch) {
          case 0x6e: code = 0x0a; break;
          case 0x72: code = 0x0d; break;
          case 0x74: code = 0x09; break;
          case 0x62: code = 0x08; break;
          case 0x66: code = 0x0c; break;
          case 0x30: case 0x31: case 0x32: case 0x33: case 0x34: case 0x35: case 0x36: case 0x37:
            code = ch & 0x0f;
            if (p >= limit) return undefined;
            ch = bytes[p++];
            charBuffered = true;
            if (ch >= 0x30 && ch <= 0x37) {
              code = (code << 3) + (ch & 0x0f);
              if (p >= limit) return undefined;
              ch = bytes[p++];
              if (ch >= 0x30 && ch <= 0x37) {
                charBuffered = false;
                code = (code << 3) + (ch & 0x0f);
              }
            }
            break;
          case 0x0d:
            if (p >= limit) return undefined;
            if (bytes[p] === 0x0a) p++;
            code = -1;
            break;
          case 0x0a:
            code = -1;
            break;
          default:
            code = ch;
        }
      }
      if (code !== -1) {
        if (n === 4096) return undefined;
        codes[n++] = code;
      }
      if (!charBuffered) {
        if (p >= limit) return undefined;
        ch = bytes[p++];
      }
    }
  }
  getObjStock() {
    let comment = false;
    let ch = this.currentChar;
`;
