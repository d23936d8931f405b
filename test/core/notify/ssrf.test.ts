import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { classifyAddress, formatIp, parseIp } from "../../../src/core/notify/ip.ts";
import { buildDeliveryRequest, deliverOnce, remoteMismatch } from "../../../src/core/notify/deliver.ts";
import { parseNotificationActivity } from "../../../src/core/project/notify.ts";
import { buildFailedPayload } from "../../../src/core/notify/payload.ts";
import { checkWebhookUrl, parseAllowList, type Resolver } from "../../../src/core/notify/ssrf.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

// Test-only self-signed certificate for "hooks.test" (valid 2000-2999); proves TLS still verifies the real host
// name while the socket is pinned to the checked address.
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBVzCB/qADAgECAhRaGwf3iy8vlbYVr5NooLbJQ+rm9DAKBggqhkjOPQQDAjAV
MRMwEQYDVQQDDApob29rcy50ZXN0MCAXDTAwMDEwMTAwMDAwMFoYDzI5OTkxMjMx
MDAwMDAwWjAVMRMwEQYDVQQDDApob29rcy50ZXN0MFkwEwYHKoZIzj0CAQYIKoZI
zj0DAQcDQgAEeX/lvrS5/fY+sn3TZXd9W9GSl96VdvoVUscZBeC1mtasOb/987vS
J5Yq5B+rPC32vfT/01i/XNeNRCn3uPe5qKMqMCgwFQYDVR0RBA4wDIIKaG9va3Mu
dGVzdDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIAtH9Ezxo2MX
8H6lKVnWciLscd6623Xg1Ci/pv0Br3eKAiEA0BWlkeW7PcYsNp6GDZ6zBPVKLTjM
BGntERCWIgHpBQk=
-----END CERTIFICATE-----
`;
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgwgiABiqtpWQOuQAd
1sGEUTYyC/BBGZaE2j5YpQphMeqhRANCAAR5f+W+tLn99j6yfdNld31b0ZKX3pV2
+hVSxxkF4LWa1qw5v/3zu9InlirkH6s8Lfa99P/TWL9c141EKfe497mo
-----END PRIVATE KEY-----
`;

const payload = buildFailedPayload({
  transaction: { tenant_id: "t", project_id: "p", transaction_id: "x" },
  error: "boom",
  occurredAt: new Date(0),
});

function request(url: string, timeout_seconds = 2) {
  const activity = parseNotificationActivity({ webhook_url: "http://placeholder.example/", timeout_seconds });
  return { ...buildDeliveryRequest(activity, payload, "msg_ssrf"), url };
}

/** Fake DNS: names below resolve as given; anything else is NXDOMAIN. */
const zone: Record<string, string[]> = {
  "internal.test": ["10.0.0.1"],
  "mixed.test": ["93.184.216.34", "127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "v6loop.test": ["::1"],
  "mapped.test": ["::ffff:127.0.0.1"],
  localhost: ["127.0.0.1", "::1"],
  "public.test": ["93.184.216.34"],
};
const fakeDns: Resolver = async (host) => {
  const answer = zone[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

let rx: Receiver;
beforeAll(() => (rx = startReceiver()));
afterAll(() => rx.stop());

describe("address classification", () => {
  test.each([
    ["2130706433", "127.0.0.1", "loopback"],
    ["0x7f.1", "127.0.0.1", "loopback"],
    ["012.0.0.1", "10.0.0.1", "private"],
    ["127.1", "127.0.0.1", "loopback"],
    ["0177.0.0.01", "127.0.0.1", "loopback"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1", "loopback"],
    ["::7f00:1", "::7f00:1", "loopback"],
    ["64:ff9b::a00:1", "64:ff9b::a00:1", "private"],
    ["2002:a9fe:a9fe::1", "2002:a9fe:a9fe::1", "link_local"],
    ["2001:0:808:808::80ff:fffe", "2001:0:808:808::80ff:fffe", "loopback"],
    ["100.127.255.255", "100.127.255.255", "shared"],
    ["198.19.0.1", "198.19.0.1", "benchmarking"],
    ["203.0.113.9", "203.0.113.9", "documentation"],
    ["::ffff:0:a00:1", "::ffff:0:a00:1", "private"],
    ["::8.8.8.8", "::808:808", "reserved"],
    ["8.8.8.8", "8.8.8.8", null],
    ["::ffff:8.8.8.8", "::ffff:808:808", null],
    ["64:ff9b::808:808", "64:ff9b::808:808", null],
    ["2606:4700:4700::1111", "2606:4700:4700::1111", null],
    ["100.128.0.1", "100.128.0.1", null],
  ])("%s is %s, %s", (text, canonical, cls) => {
    const bytes = parseIp(text);
    expect(bytes).not.toBeNull();
    expect(formatIp(bytes!)).toBe(canonical);
    expect(classifyAddress(bytes!)).toBe(cls as never);
  });

  test("rejects malformed literals", () => {
    for (const bad of [
      "1.2.3.4.5",
      "256.1.1.1",
      "1.2.3.0x100",
      "a::b::c",
      "1:2:3:4:5:6:7:8:9",
      "08.0.0.1",
      "fe80::1%eth0",
    ]) {
      expect(parseIp(bad)).toBeNull();
    }
  });

  test("parseAllowList reads CIDR lists and rejects junk", () => {
    expect(parseAllowList(undefined)).toBe(false);
    expect(parseAllowList("")).toBe(false);
    expect(parseAllowList("127.0.0.0/8, ::1/128")).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(parseAllowList("*")).toBe(true);
    expect(() => parseAllowList("127.0.0.0/33")).toThrow(/not an IP address or CIDR/);
  });
});

describe("SSRF guard rejects internal targets and nothing is sent", () => {
  const P = () => rx.port;
  const table: Array<[string, () => string]> = [
    ["loopback", () => `http://127.0.0.1:${P()}/hook`],
    ["localhost name", () => `http://localhost:${P()}/hook`],
    ["decimal integer", () => `http://2130706433:${P()}/hook`],
    ["hex short form", () => `http://0x7f.1:${P()}/hook`],
    ["octal to 10.0.0.1", () => `http://012.0.0.1:${P()}/hook`],
    ["two-part", () => `http://127.1:${P()}/hook`],
    ["octal loopback", () => `http://0177.0.0.1:${P()}/hook`],
    ["hex integer", () => `http://0x7f000001:${P()}/hook`],
    ["trailing dot", () => `http://127.0.0.1.:${P()}/hook`],
    ["percent-encoded host", () => `http://%31%32%37.0.0.1:${P()}/hook`],
    ["IPv4-mapped IPv6", () => `http://[::ffff:127.0.0.1]:${P()}/hook`],
    ["IPv4-mapped IPv6 hex", () => `http://[::ffff:7f00:1]:${P()}/hook`],
    ["IPv4-compatible IPv6", () => `http://[::7f00:1]:${P()}/hook`],
    ["IPv4-translated IPv6", () => `http://[::ffff:0:7f00:1]:${P()}/hook`],
    ["IPv6 loopback", () => `http://[::1]:${P()}/hook`],
    ["IPv6 unspecified", () => `http://[::]:${P()}/hook`],
    ["0.0.0.0", () => `http://0.0.0.0:${P()}/hook`],
    ["bare 0", () => `http://0:${P()}/hook`],
    ["https loopback", () => `https://127.0.0.1:${P()}/hook`],
    ["private 10/8", () => "http://10.0.0.1/"],
    ["private 172.16/12", () => "http://172.16.5.4/"],
    ["private 192.168/16", () => "http://192.168.1.1/"],
    ["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
    ["shared 100.64/10", () => "http://100.64.0.1/"],
    ["benchmarking", () => "http://198.18.0.1/"],
    ["documentation", () => "http://192.0.2.1/"],
    ["multicast", () => "http://224.0.0.1/"],
    ["broadcast", () => "http://255.255.255.255/"],
    ["reserved 240/4", () => "http://240.0.0.1/"],
    ["IPv6 link-local", () => "http://[fe80::1]/"],
    ["IPv6 unique local", () => "http://[fd00::1]/"],
    ["IPv6 multicast", () => "http://[ff02::1]/"],
    ["NAT64 of 10.0.0.1", () => "http://[64:ff9b::a00:1]/"],
    ["6to4 of 127.0.0.1", () => `http://[2002:7f00:1::]:${P()}/`],
    ["Teredo client 127.0.0.1", () => "http://[2001:0:808:808::80ff:fffe]/"],
    ["mapped metadata", () => "http://[::ffff:a9fe:a9fe]/"],
    ["name resolving to 10.0.0.1", () => "http://internal.test/"],
    ["name resolving to public and private", () => `http://mixed.test:${P()}/hook`],
    ["name resolving to metadata", () => "http://metadata.test/"],
    ["name resolving to ::1", () => `http://v6loop.test:${P()}/hook`],
    ["name resolving to mapped loopback", () => `http://mapped.test:${P()}/hook`],
    ["userinfo trick", () => `http://example.com@127.0.0.1:${P()}/hook`],
    ["userinfo with public host", () => `http://127.0.0.1:${P()}@public.test/hook`],
    ["file scheme", () => "file:///etc/passwd"],
    ["ftp scheme", () => "ftp://127.0.0.1/"],
    ["gopher scheme", () => `gopher://127.0.0.1:${P()}/_GET%20/hook`],
    ["data scheme", () => "data:text/plain,hello"],
    ["javascript scheme", () => "javascript:alert(1)"],
    ["not a URL", () => "not a url"],
    ["zone id", () => "http://[fe80::1%25eth0]/"],
  ];

  test(`the table has at least 30 URLs (${table.length})`, () => expect(table.length).toBeGreaterThanOrEqual(30));

  test.each(table)("%s is rejected before any connection", async (_name, url) => {
    const outcome = await deliverOnce(request(url()), { resolve: fakeDns });
    expect(outcome.ok).toBe(false);
    expect(outcome.kind).toBe("ssrf_blocked");
    expect(outcome.retryable).toBe(false);
    expect(outcome.address).toBeUndefined();
    await expect(checkWebhookUrl(url(), { resolve: fakeDns })).rejects.toMatchObject({ code: "ssrf_blocked" });
  });

  test("the receiver saw nothing from the whole table", () => expect(rx.received).toHaveLength(0));

  test("the loopback spellings do reach the receiver once 127.0.0.0/8 is allow-listed (the table is live)", async () => {
    const live = [
      `http://2130706433:${P()}/hook`,
      `http://0x7f.1:${P()}/hook`,
      `http://127.1:${P()}/hook`,
      `http://[::ffff:127.0.0.1]:${P()}/hook`,
      `http://localhost:${P()}/hook`,
    ];
    try {
      for (const url of live) {
        const outcome = await deliverOnce(request(url), { resolve: fakeDns, allowPrivate: ["127.0.0.0/8", "::1/128"] });
        expect(outcome).toMatchObject({ ok: true, address: "127.0.0.1" });
      }
      expect(rx.received).toHaveLength(live.length);
    } finally {
      rx.received.length = 0;
    }
  });

  test("IPv6 loopback is reachable only when ::1/128 is allow-listed, literal or by name", async () => {
    const v6 = startReceiver({ hostname: "::1" });
    try {
      const url = `http://[::1]:${v6.port}/hook`;
      expect((await deliverOnce(request(url), {})).kind).toBe("ssrf_blocked");
      expect((await deliverOnce(request(url), { allowPrivate: ["127.0.0.0/8"] })).kind).toBe("ssrf_blocked");
      expect(await deliverOnce(request(url), { allowPrivate: ["::1/128"] })).toMatchObject({
        ok: true,
        address: "::1",
      });
      const byName = await deliverOnce(request(`http://v6loop.test:${v6.port}/hook`), {
        resolve: fakeDns,
        allowPrivate: ["::1/128"],
      });
      expect(byName).toMatchObject({ ok: true, address: "::1" });
      expect(v6.received.map((r) => r.headers.host)).toEqual([`[::1]:${v6.port}`, `v6loop.test:${v6.port}`]);
    } finally {
      v6.stop();
    }
  });

  test("an allow-list entry does not open other private ranges", async () => {
    await expect(checkWebhookUrl("http://10.0.0.1/", { allowPrivate: ["127.0.0.0/8"] })).rejects.toMatchObject({
      code: "ssrf_blocked",
    });
    await expect(
      checkWebhookUrl("http://mixed.test/", { resolve: fakeDns, allowPrivate: ["10.0.0.0/8"] }),
    ).rejects.toThrow(/127\.0\.0\.1/);
  });

  test("the default resolver resolves localhost and the guard rejects it", async () => {
    await expect(checkWebhookUrl(`http://localhost:${P()}/`)).rejects.toMatchObject({ code: "ssrf_blocked" });
  });

  test("an unresolvable name is a retryable DNS failure, not a block", async () => {
    const outcome = await deliverOnce(request("http://nowhere.test/"), { resolve: fakeDns });
    expect(outcome).toMatchObject({ ok: false, kind: "dns", retryable: true });
  });

  test("a public address passes the check and is the one returned for connecting", async () => {
    const checked = await checkWebhookUrl("https://public.test/hook?x=1", { resolve: fakeDns });
    expect(checked).toMatchObject({ hostname: "public.test", address: "93.184.216.34", family: 4 });
  });
});

describe("the connection goes to the checked address (DNS rebinding)", () => {
  test("a second, different DNS answer is never used: one lookup, the checked receiver gets the request", async () => {
    const checkedRx = startReceiver({ hostname: "127.0.0.2" });
    const rebindRx = startReceiver({ hostname: "127.0.0.1", port: checkedRx.port }); // same port, the rebinding target
    let lookups = 0;
    const rebinding: Resolver = async () => (++lookups === 1 ? ["127.0.0.2"] : ["127.0.0.1"]);
    try {
      const outcome = await deliverOnce(request(`http://rebind.test:${checkedRx.port}/hook`), {
        resolve: rebinding,
        allowPrivate: ["127.0.0.2/32"],
      });
      expect(outcome).toMatchObject({ ok: true, address: "127.0.0.2" });
      expect(lookups).toBe(1);
      expect(checkedRx.received).toHaveLength(1);
      expect(checkedRx.received[0].headers.host).toBe(`rebind.test:${checkedRx.port}`);
      expect(rebindRx.received).toHaveLength(0);
      // The next attempt checks again and now sees the rebinding answer: blocked, still nothing sent to it.
      const second = await deliverOnce(request(`http://rebind.test:${checkedRx.port}/hook`), {
        resolve: rebinding,
        allowPrivate: ["127.0.0.2/32"],
      });
      expect(second.kind).toBe("ssrf_blocked");
      expect(rebindRx.received).toHaveLength(0);
    } finally {
      checkedRx.stop();
      rebindRx.stop();
    }
  });

  test("public first, then 127.0.0.1: the attempt goes to the public address, never to loopback", async () => {
    let lookups = 0;
    const rebinding: Resolver = async () => (++lookups === 1 ? ["93.184.216.34"] : ["127.0.0.1"]);
    const outcome = await deliverOnce(request(`http://rebind.test:${rx.port}/hook`, 0.5), { resolve: rebinding });
    expect(outcome.address).toBe("93.184.216.34");
    expect(lookups).toBe(1);
    expect(rx.received).toHaveLength(0);
  });

  test("a socket connected anywhere but the checked address is refused (guard against a runtime ignoring lookup)", async () => {
    const checked = await checkWebhookUrl("http://public.test/", { resolve: fakeDns });
    expect(remoteMismatch("93.184.216.34", checked)).toBeNull();
    expect(remoteMismatch("::ffff:93.184.216.34", checked)).toBeNull();
    expect(remoteMismatch("127.0.0.1", checked)).toMatch(/not the checked address 93\.184\.216\.34/);
  });

  test("https is pinned too, and the certificate is still verified against the URL host name", async () => {
    const tlsRx = startReceiver({ hostname: "127.0.0.2", tls: { cert: TEST_CERT, key: TEST_KEY } });
    const resolve: Resolver = async () => ["127.0.0.2"];
    try {
      const ok = await deliverOnce(request(`https://hooks.test:${tlsRx.port}/hook`), {
        resolve,
        allowPrivate: ["127.0.0.2/32"],
        ca: TEST_CERT,
      });
      expect(ok).toMatchObject({ ok: true, status: 200, address: "127.0.0.2" });
      expect(tlsRx.received[0].headers.host).toBe(`hooks.test:${tlsRx.port}`);
      const wrongName = await deliverOnce(request(`https://other.test:${tlsRx.port}/hook`), {
        resolve,
        allowPrivate: ["127.0.0.2/32"],
        ca: TEST_CERT,
      });
      expect(wrongName.ok).toBe(false);
      expect(wrongName.error).toMatch(/altnames|certificate/i);
      const untrusted = await deliverOnce(request(`https://hooks.test:${tlsRx.port}/hook`), {
        resolve,
        allowPrivate: ["127.0.0.2/32"],
      });
      expect(untrusted.ok).toBe(false);
      expect(tlsRx.received).toHaveLength(1);
    } finally {
      tlsRx.stop();
    }
  });
});
