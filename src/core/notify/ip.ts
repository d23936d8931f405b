/**
 * IP address parsing and classification for the webhook SSRF guard.
 *
 * Addresses are handled as byte arrays (4 or 16 bytes) so that every spelling of one address (decimal, octal, hex,
 * shortened IPv4, IPv4-mapped or embedded IPv6) is classified by the address it really reaches.
 */

export type IpBytes = Uint8Array; // length 4 (IPv4) or 16 (IPv6)

/** Why an address is not public; null when it is a public unicast address. */
export type AddressClass =
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "link_local"
  | "multicast"
  | "reserved"
  | "benchmarking"
  | "documentation"
  | "broadcast";

/**
 * Parses an IPv4 host the way inet_aton and the WHATWG URL host parser do: 1 to 4 parts, each decimal, octal
 * (leading 0) or hex (0x); the last part fills the remaining bytes (`127.1`, `2130706433`, `0x7f.1`, `012.0.0.1`).
 * A single trailing dot is allowed. Returns null when the text is not such a number.
 */
export function parseIPv4(text: string): IpBytes | null {
  const host = text.endsWith(".") ? text.slice(0, -1) : text;
  const parts = host.split(".");
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = parseIPv4Number(part);
    if (value === null) return null;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return null;
  if (last >= 256 ** (4 - values.length)) return null;
  let n = last;
  values.forEach((v, i) => (n += v * 256 ** (3 - i)));
  return Uint8Array.of((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
}

function parseIPv4Number(part: string): number | null {
  if (part === "") return null;
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    if (digits === "") return 0; // WHATWG: "0x" alone is zero
  } else if (part.length > 1 && part.startsWith("0")) {
    digits = part.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  const value = parseInt(digits, radix);
  return Number.isSafeInteger(value) ? value : null;
}

/** Parses an IPv6 literal (optionally in brackets; an IPv4 tail such as `::ffff:127.0.0.1` is accepted). */
export function parseIPv6(text: string): IpBytes | null {
  let host = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (host.includes("%")) return null; // zone ids are never valid in a webhook URL
  if (!/^[0-9a-f:.]+$/i.test(host) || !host.includes(":")) return null;
  const groups: number[] = [];
  const tailMatch = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  let tail: number[] = [];
  if (tailMatch) {
    const v4 = tailMatch[2].split(".").map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : 256));
    if (v4.some((v) => v > 255)) return null;
    tail = [(v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]];
    host = tailMatch[1].endsWith("::") ? tailMatch[1] : tailMatch[1].slice(0, -1);
  }
  const halves = host.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string): number[] | null => {
    if (s === "") return [];
    const out: number[] = [];
    for (const g of s.split(":")) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !rest) return null;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 2 ? known > 7 : known !== 8) return null;
  groups.push(...head, ...new Array(8 - known).fill(0), ...rest, ...tail); // stack-safe: an IPv6 address's 8 groups
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 255;
  });
  return bytes;
}

/** Parses any IP literal (IPv6 in or out of brackets, IPv4 in every inet_aton spelling). */
export function parseIp(text: string): IpBytes | null {
  return parseIPv6(text) ?? parseIPv4(text);
}

export function formatIp(bytes: IpBytes): string {
  if (bytes.length === 4) return Array.from(bytes).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups
    .join(":")
    .replace(/(^|:)0(:0)+(:|$)/, "::")
    .replace(/:{3,}/, "::");
}

/** A CIDR block; `matches` compares the leading `prefix` bits. */
export interface Cidr {
  bytes: IpBytes;
  prefix: number;
  text: string;
}

export function parseCidr(text: string): Cidr | null {
  const [addr, len, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const bytes = parseIp(addr);
  if (!bytes) return null;
  const max = bytes.length * 8;
  const prefix = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { bytes, prefix, text: text.trim() };
}

export function inCidr(addr: IpBytes, cidr: Cidr): boolean {
  if (addr.length !== cidr.bytes.length) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((addr[i] & mask) !== (cidr.bytes[i] & mask)) return false;
  }
  return true;
}

const cidr = (text: string): Cidr => parseCidr(text) as Cidr;

/** Order matters: the first matching block names the class. Sources: IANA special-purpose registries. */
const IPV4_BLOCKS: Array<[Cidr, AddressClass]> = [
  [cidr("0.0.0.0/8"), "unspecified"],
  [cidr("10.0.0.0/8"), "private"],
  [cidr("100.64.0.0/10"), "shared"],
  [cidr("127.0.0.0/8"), "loopback"],
  [cidr("169.254.0.0/16"), "link_local"],
  [cidr("172.16.0.0/12"), "private"],
  [cidr("192.0.0.0/24"), "reserved"],
  [cidr("192.0.2.0/24"), "documentation"],
  [cidr("192.88.99.0/24"), "reserved"], // deprecated 6to4 relay anycast
  [cidr("192.168.0.0/16"), "private"],
  [cidr("198.18.0.0/15"), "benchmarking"],
  [cidr("198.51.100.0/24"), "documentation"],
  [cidr("203.0.113.0/24"), "documentation"],
  [cidr("224.0.0.0/4"), "multicast"],
  [cidr("255.255.255.255/32"), "broadcast"],
  [cidr("240.0.0.0/4"), "reserved"],
];

const IPV6_BLOCKS: Array<[Cidr, AddressClass]> = [
  [cidr("::/128"), "unspecified"],
  [cidr("::1/128"), "loopback"],
  [cidr("64:ff9b:1::/48"), "private"], // local-use NAT64
  [cidr("100::/64"), "reserved"], // discard-only
  [cidr("2001:2::/48"), "benchmarking"],
  [cidr("2001:10::/28"), "reserved"], // ORCHID
  [cidr("2001:20::/28"), "reserved"], // ORCHIDv2
  [cidr("2001:db8::/32"), "documentation"],
  [cidr("3fff::/20"), "documentation"],
  [cidr("5f00::/16"), "reserved"], // SRv6 SIDs
  [cidr("fc00::/7"), "private"], // unique local
  [cidr("fe80::/10"), "link_local"],
  [cidr("fec0::/10"), "private"], // deprecated site-local
  [cidr("ff00::/8"), "multicast"],
];

/**
 * IPv4 addresses an IPv6 address carries and may really reach: IPv4-mapped (::ffff:0:0/96), IPv4-compatible
 * (::/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32,
 * server and obfuscated client address).
 */
export function embeddedIPv4(bytes: IpBytes): IpBytes[] {
  if (bytes.length !== 16) return [];
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const last4 = bytes.slice(12, 16);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return [last4];
  if (zeros(0, 12)) return [last4];
  if (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12)) return [last4];
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return [last4];
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return [bytes.slice(2, 6)];
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0 && bytes[3] === 0) {
    return [bytes.slice(4, 8), last4.map((b) => b ^ 0xff)];
  }
  return [];
}

/** Returns why the address is not a public unicast address, or null when it is public. */
export function classifyAddress(bytes: IpBytes): AddressClass | null {
  if (bytes.length === 4) return IPV4_BLOCKS.find(([block]) => inCidr(bytes, block))?.[1] ?? null;
  const special = IPV6_BLOCKS.find(([block]) => inCidr(bytes, block));
  if (special) return special[1];
  const embedded = embeddedIPv4(bytes);
  for (const v4 of embedded) {
    const cls = classifyAddress(v4);
    if (cls) return cls;
  }
  // IPv4-compatible and IPv4-translated forms are deprecated and never routed: reserved whatever they carry.
  // Mapped, NAT64, 6to4 and Teredo forms carrying public addresses reach the public internet.
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 12) || (zeros(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zeros(10, 12))) return "reserved";
  if (embedded.length > 0) return null;
  return (bytes[0] & 0xe0) === 0x20 ? null : "reserved"; // outside 2000::/3 nothing is global unicast
}

function isMapped(bytes: IpBytes): boolean {
  return bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** An IPv4-mapped IPv6 address is the IPv4 address for allow-list matching and connecting. */
export function unmapIPv4(bytes: IpBytes): IpBytes {
  return bytes.length === 16 && isMapped(bytes) ? bytes.slice(12, 16) : bytes;
}
