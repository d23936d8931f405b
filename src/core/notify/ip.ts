/**
 * IP address parsing and classification for the webhook SSRF guard, on ipaddr.js (parsing, formatting, CIDR
 * matching). ipaddr.js reads every inet_aton spelling of an IPv4 address (decimal `2130706433`, octal `0177.0.0.1`,
 * hex `0x7f.1`, shortened `127.1`), so each is classified by the address it really reaches.
 *
 * What stays hand-written here, and why:
 * - the dotted IPv4 tail of an IPv6 literal is turned into two hex groups before parsing: ipaddr.js reads `::a.b.c.d`
 *   (IPv4-compatible, deprecated, never routed) as `::ffff:a.b.c.d` (IPv4-mapped), which names another address;
 * - zone ids (`fe80::1%eth0`) are refused: ipaddr.js accepts them, but they are never valid in a webhook URL;
 * - the special-purpose tables below: ipaddr.js's range names lump documentation, benchmarking and 240/4 together
 *   as "reserved" and call anything else in IPv6 "unicast" (even outside 2000::/3), while the guard's message says
 *   which kind of address was refused and must refuse what is not global unicast;
 * - embeddedIPv4: ipaddr.js names the 6to4, Teredo and NAT64 ranges but does not give the IPv4 address they carry,
 *   which the guard must classify too.
 */
import ipaddr from "ipaddr.js";

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

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

/** `::ffff:1.2.3.4` → `::ffff:102:304`: the IPv6 text ipaddr.js reads as the address it names (see above). */
function hexTail(text: string): string | null {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return text;
  const b = m.slice(2, 6).map(Number);
  if (b.some((v) => v > 255)) return null;
  return `${m[1]}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
}

/** Parses an IPv6 literal (optionally in brackets; an IPv4 tail such as `::ffff:127.0.0.1` is accepted). */
export function parseIPv6(text: string): ipaddr.IPv6 | null {
  const host = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (!host.includes(":") || host.includes("%")) return null;
  const native = hexTail(host);
  return native !== null && ipaddr.IPv6.isValid(native) ? ipaddr.IPv6.parse(native) : null;
}

/** Parses an IPv4 host in any inet_aton spelling (1 to 4 parts, each decimal, octal or hex). */
export function parseIPv4(text: string): ipaddr.IPv4 | null {
  return ipaddr.IPv4.isValid(text) ? ipaddr.IPv4.parse(text) : null;
}

/** Parses any IP literal (IPv6 in or out of brackets, IPv4 in every inet_aton spelling). */
export function parseIp(text: string): IpAddress | null {
  return parseIPv6(text) ?? parseIPv4(text);
}

/** Dotted decimal for IPv4, RFC 5952 for IPv6 (`::ffff:7f00:1`). */
export function formatIp(addr: IpAddress): string {
  return addr.toString();
}

/** A CIDR block (a bare address is a block of one). */
export interface Cidr {
  range: [IpAddress, number];
  text: string;
}

export function parseCidr(text: string): Cidr | null {
  const [addr, len, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const ip = parseIp(addr!);
  if (!ip) return null;
  const max = ip.kind() === "ipv4" ? 32 : 128;
  const prefix = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { range: [ip, prefix], text: text.trim() };
}

export function inCidr(addr: IpAddress, cidr: Cidr): boolean {
  const [base, bits] = cidr.range;
  // ipaddr.js throws when the kinds differ: an IPv4 address is never in an IPv6 block (unmap first), and back.
  return addr.kind() === base.kind() && (addr as ipaddr.IPv4).match(base as ipaddr.IPv4, bits);
}

const table = (rows: Array<[string, AddressClass]>): Array<[Cidr, AddressClass]> =>
  rows.map(([text, cls]) => [parseCidr(text)!, cls]);

/** Order matters: the first matching block names the class. Sources: IANA special-purpose registries. */
const IPV4_BLOCKS = table([
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "shared"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link_local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "reserved"], // deprecated 6to4 relay anycast
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["255.255.255.255/32", "broadcast"],
  ["240.0.0.0/4", "reserved"],
]);

const IPV6_BLOCKS = table([
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["64:ff9b:1::/48", "private"], // local-use NAT64
  ["100::/64", "reserved"], // discard-only
  ["2001:2::/48", "benchmarking"],
  ["2001:10::/28", "reserved"], // ORCHID
  ["2001:20::/28", "reserved"], // ORCHIDv2
  ["2001:db8::/32", "documentation"],
  ["3fff::/20", "documentation"],
  ["5f00::/16", "reserved"], // SRv6 SIDs
  ["fc00::/7", "private"], // unique local
  ["fe80::/10", "link_local"],
  ["fec0::/10", "private"], // deprecated site-local
  ["ff00::/8", "multicast"],
]);

const v4 = (bytes: number[]) => ipaddr.fromByteArray(bytes) as ipaddr.IPv4;
const zeros = (bytes: number[], from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);

/**
 * IPv4 addresses an IPv6 address carries and may really reach: IPv4-mapped (::ffff:0:0/96), IPv4-compatible
 * (::/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo (2001::/32,
 * server and obfuscated client address).
 */
export function embeddedIPv4(addr: IpAddress): ipaddr.IPv4[] {
  if (addr.kind() !== "ipv6") return [];
  const bytes = addr.toByteArray();
  const last4 = bytes.slice(12, 16);
  switch ((addr as ipaddr.IPv6).range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return [v4(last4)];
    case "rfc6052":
      return zeros(bytes, 4, 12) ? [v4(last4)] : []; // 64:ff9b::/96; the /48 local-use block is private above
    case "6to4":
      return [v4(bytes.slice(2, 6))];
    case "teredo":
      return [v4(bytes.slice(4, 8)), v4(last4.map((b) => b ^ 0xff))];
  }
  return zeros(bytes, 0, 12) ? [v4(last4)] : []; // IPv4-compatible
}

/** Returns why the address is not a public unicast address, or null when it is public. */
export function classifyAddress(addr: IpAddress): AddressClass | null {
  if (addr.kind() === "ipv4") return IPV4_BLOCKS.find(([block]) => inCidr(addr, block))?.[1] ?? null;
  const special = IPV6_BLOCKS.find(([block]) => inCidr(addr, block));
  if (special) return special[1];
  const embedded = embeddedIPv4(addr);
  for (const carried of embedded) {
    const cls = classifyAddress(carried);
    if (cls) return cls;
  }
  // IPv4-compatible and IPv4-translated forms are deprecated and never routed: reserved whatever they carry.
  // Mapped, NAT64, 6to4 and Teredo forms carrying public addresses reach the public internet.
  const bytes = addr.toByteArray();
  if (zeros(bytes, 0, 12) || (addr as ipaddr.IPv6).range() === "rfc6145") return "reserved";
  if (embedded.length > 0) return null;
  return (bytes[0]! & 0xe0) === 0x20 ? null : "reserved"; // outside 2000::/3 nothing is global unicast
}

/** An IPv4-mapped IPv6 address is the IPv4 address for allow-list matching and connecting. */
export function unmapIPv4(addr: IpAddress): IpAddress {
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}
