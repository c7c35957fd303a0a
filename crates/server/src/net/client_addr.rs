//! Which address a request's client has: the TCP peer's, or — when the peer is a proxy
//! the operator trusts (`--trusted-proxies`) — the one that proxy wrote into
//! `X-Forwarded-For`. Behind a proxy every connection comes from the proxy, so without
//! this every player shares one address's limits; but any client can write the header
//! too, so it is believed only from a trusted peer, and only as far as trusted hops
//! wrote it.
//!
//! The rule (the one nginx's `real_ip_recursive on` and most frameworks follow): each
//! proxy appends the address it saw on the right, so reading from the right, an entry is
//! genuine for as long as every entry to its right is a trusted proxy. The client is the
//! first entry from the right that is not a trusted proxy (the rightmost untrusted hop);
//! anything to its left is whatever that client chose to send and is never read.
//!
//! When there is no such entry the client is the peer itself (the proxy's own address):
//! the header is missing or empty, every hop in it is a trusted proxy (a request the
//! proxies themselves made, such as a health check), an entry reached before an
//! untrusted one is not an address (`unknown`, a Unix socket, garbage), or
//! [`MAX_HOPS`] trusted hops were read without reaching an untrusted one. Counting
//! such a request under the proxy is the conservative choice: it shares the proxy's
//! budget and can never pick an address of its own. A client cannot steer itself into
//! this case, since only trusted proxies write the entries read.
//!
//! Bounds: at most [`MAX_HOPS`] entries are read, from the right, each at most
//! [`MAX_ENTRY`] bytes (longer ones are not addresses); the header as a whole is bounded
//! by hyper's limit on a request head. Entries may carry a port (`192.0.2.1:4711`,
//! `[2001:db8::1]:4711`), brackets and surrounding whitespace; several
//! `X-Forwarded-For` lines are one list, in order.

use axum::http::HeaderMap;
use ipnet::IpNet;
use std::net::IpAddr;

/// The header proxies append the address they saw to.
pub const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// The most `X-Forwarded-For` entries read, from the right: more trusted hops than any
/// real chain of proxies has.
pub const MAX_HOPS: usize = 16;

/// The longest entry read as an address (the longest IPv6 text with brackets and a port
/// is 53 bytes); a longer one is not an address.
pub const MAX_ENTRY: usize = 64;

/// The address a request's client is counted and logged under, as [`client_address`]
/// found it: every request the public listener serves carries one (`net::accept`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// Whether `ip` is one of the trusted proxies (an IPv4 address seen as IPv6 is compared
/// as IPv4).
pub fn is_trusted(trusted: &[IpNet], ip: IpAddr) -> bool {
    let ip = ip.to_canonical();
    trusted.iter().any(|net| net.contains(&ip))
}

/// The client behind a request from `peer` with `headers`: the rightmost untrusted hop
/// of `X-Forwarded-For` when `peer` is a trusted proxy, else `peer` (see the module doc
/// for every case). IPv4 addresses seen as IPv6 come back as IPv4.
pub fn client_address(peer: IpAddr, trusted: &[IpNet], headers: &HeaderMap) -> IpAddr {
    let peer = peer.to_canonical();
    if !is_trusted(trusted, peer) {
        return peer;
    }
    let values = headers
        .get_all(X_FORWARDED_FOR)
        .iter()
        .map(|v| v.as_bytes());
    rightmost_untrusted(values, trusted).unwrap_or(peer)
}

/// The first entry from the right of the list `values` (the header's lines, in order)
/// that is not a trusted proxy; `None` when none is found within the bounds, or an entry
/// read before it is not an address.
fn rightmost_untrusted<'a>(
    values: impl DoubleEndedIterator<Item = &'a [u8]>,
    trusted: &[IpNet],
) -> Option<IpAddr> {
    let mut read = 0;
    for value in values.rev() {
        for entry in value.rsplit(|b| *b == b',') {
            let entry = entry.trim_ascii();
            if entry.is_empty() {
                // `a,,b` or a trailing comma: no hop, nothing to believe or doubt.
                continue;
            }
            read += 1;
            if read > MAX_HOPS {
                return None;
            }
            let hop = hop_address(entry)?;
            if !is_trusted(trusted, hop) {
                return Some(hop);
            }
        }
    }
    None
}

/// One entry as an address: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`; `None` for anything else.
fn hop_address(entry: &[u8]) -> Option<IpAddr> {
    if entry.len() > MAX_ENTRY {
        return None;
    }
    let text = std::str::from_utf8(entry).ok()?;
    if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        if !(after.is_empty() || port(after.strip_prefix(':')?)) {
            return None;
        }
        return inside
            .parse::<std::net::Ipv6Addr>()
            .ok()
            .map(|ip| IpAddr::V6(ip).to_canonical());
    }
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    // IPv4 with a port (an IPv6 address with a port is always bracketed).
    let (host, p) = text.split_once(':')?;
    if !port(p) {
        return None;
    }
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

fn port(text: &str) -> bool {
    text.parse::<u16>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter()
            .map(|t| crate::config::parse_trusted_proxy(t).unwrap())
            .collect()
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    /// The client of a request from `peer` carrying these `X-Forwarded-For` lines.
    fn client(peer: &str, trusted: &[&str], lines: &[&str]) -> IpAddr {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append(X_FORWARDED_FOR, HeaderValue::from_str(line).unwrap());
        }
        client_address(ip(peer), &nets(trusted), &headers)
    }

    const PROXY: &[&str] = &["127.0.0.1"];

    #[test]
    fn the_header_is_ignored_from_a_peer_that_is_not_trusted() {
        assert_eq!(
            client("198.51.100.4", &[], &["203.0.113.9"]),
            ip("198.51.100.4")
        );
        assert_eq!(
            client("198.51.100.4", PROXY, &["203.0.113.9"]),
            ip("198.51.100.4")
        );
        // A mapped peer is compared, and reported, as IPv4.
        assert_eq!(
            client("::ffff:198.51.100.4", PROXY, &["203.0.113.9"]),
            ip("198.51.100.4")
        );
    }

    #[test]
    fn from_a_trusted_peer_the_rightmost_untrusted_hop_is_the_client() {
        assert_eq!(
            client("127.0.0.1", PROXY, &["203.0.113.9"]),
            ip("203.0.113.9")
        );
        // The client wrote the leftmost entry itself; nginx appended what it saw.
        assert_eq!(
            client("127.0.0.1", PROXY, &["6.6.6.6, 203.0.113.9"]),
            ip("203.0.113.9")
        );
        // Two proxies of ours: the inner one's entry is skipped.
        assert_eq!(
            client(
                "10.0.0.2",
                &["10.0.0.0/24"],
                &["6.6.6.6, 203.0.113.9, 10.0.0.1"]
            ),
            ip("203.0.113.9")
        );
        // A spoofed "trusted" entry left of the real client changes nothing.
        assert_eq!(
            client("127.0.0.1", PROXY, &["127.0.0.1, 203.0.113.9"]),
            ip("203.0.113.9")
        );
        // A mapped peer is trusted as its IPv4 address.
        assert_eq!(
            client("::ffff:127.0.0.1", PROXY, &["203.0.113.9"]),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn ipv6_and_mixed_lists_and_ports_and_brackets() {
        let v6 = &["::1", "fd00::/8"];
        assert_eq!(
            client("::1", v6, &["2001:db8::7, fd00::3"]),
            ip("2001:db8::7")
        );
        assert_eq!(
            client("::1", v6, &["192.0.2.1, [2001:DB8::8]:4711"]),
            ip("2001:db8::8")
        );
        assert_eq!(client("::1", v6, &["[2001:db8::9]"]), ip("2001:db8::9"));
        assert_eq!(client("::1", v6, &["192.0.2.1:4711"]), ip("192.0.2.1"));
        assert_eq!(
            client("::1", v6, &["::ffff:192.0.2.2"]),
            ip("192.0.2.2"),
            "a mapped hop is its IPv4 address"
        );
        let mixed = &["127.0.0.1", "::1"];
        assert_eq!(
            client("127.0.0.1", mixed, &["2001:db8::1, ::1"]),
            ip("2001:db8::1")
        );
    }

    #[test]
    fn whitespace_empty_entries_and_several_lines_are_read_as_one_list() {
        assert_eq!(
            client("127.0.0.1", PROXY, &["  203.0.113.9\t ,\t127.0.0.1  "]),
            ip("203.0.113.9")
        );
        assert_eq!(
            client("127.0.0.1", PROXY, &["203.0.113.9,,", " , "]),
            ip("203.0.113.9")
        );
        // Lines in order: the last line's entries are the rightmost.
        assert_eq!(
            client("127.0.0.1", PROXY, &["6.6.6.6", "203.0.113.9, 127.0.0.1"]),
            ip("203.0.113.9")
        );
        assert_eq!(
            client("127.0.0.1", PROXY, &["203.0.113.9", "127.0.0.1"]),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn missing_all_trusted_or_unreadable_falls_back_to_the_peer() {
        let proxy = ip("127.0.0.1");
        assert_eq!(client("127.0.0.1", PROXY, &[]), proxy, "no header");
        assert_eq!(client("127.0.0.1", PROXY, &[""]), proxy, "empty");
        assert_eq!(
            client("127.0.0.1", PROXY, &["127.0.0.1, 127.0.0.1"]),
            proxy,
            "every hop trusted"
        );
        for garbage in [
            "unknown",
            "_hidden",
            "not an address",
            "203.0.113.9:99999",
            "[2001:db8::1",
            "[2001:db8::1]x",
            "[203.0.113.9]",
            "fe80::1%eth0",
            "203.0.113.9 203.0.113.10",
        ] {
            assert_eq!(client("127.0.0.1", PROXY, &[garbage]), proxy, "{garbage:?}");
        }
        // Garbage left of the client is the client's own: never read.
        assert_eq!(
            client("127.0.0.1", PROXY, &["unknown, _x, 203.0.113.9"]),
            ip("203.0.113.9")
        );
        let mut headers = HeaderMap::new();
        let bytes = HeaderValue::from_bytes(b"\xff\xfe, 203.0.113.9").unwrap();
        headers.append(X_FORWARDED_FOR, bytes);
        assert_eq!(
            client_address(ip("127.0.0.1"), &nets(PROXY), &headers),
            ip("203.0.113.9")
        );
        let bytes = HeaderValue::from_bytes(b"203.0.113.9, \xff\xfe").unwrap();
        headers.insert(X_FORWARDED_FOR, bytes);
        assert_eq!(
            client_address(ip("127.0.0.1"), &nets(PROXY), &headers),
            ip("127.0.0.1"),
            "not UTF-8 where a proxy of ours wrote"
        );
        // Garbage between trusted hops and the client: a proxy of ours wrote it.
        assert_eq!(
            client("127.0.0.1", PROXY, &["203.0.113.9, unknown, 127.0.0.1"]),
            proxy
        );
    }

    #[test]
    fn only_so_many_hops_and_so_long_an_entry_are_read() {
        let trusted_hops = vec!["127.0.0.1"; MAX_HOPS - 1].join(",");
        assert_eq!(
            client(
                "127.0.0.1",
                PROXY,
                &[&format!("203.0.113.9,{trusted_hops}")]
            ),
            ip("203.0.113.9"),
            "the client as the last hop read"
        );
        let too_many = vec!["127.0.0.1"; MAX_HOPS].join(",");
        assert_eq!(
            client("127.0.0.1", PROXY, &[&format!("203.0.113.9,{too_many}")]),
            ip("127.0.0.1"),
            "past the bound: the peer"
        );
        // Thousands of client-written entries left of the client cost nothing.
        let spoofs = vec!["6.6.6.6"; 5000].join(",");
        assert_eq!(
            client("127.0.0.1", PROXY, &[&format!("{spoofs},203.0.113.9")]),
            ip("203.0.113.9")
        );
        assert_eq!(
            hop_address(format!("0{}", "0".repeat(MAX_ENTRY)).as_bytes()),
            None
        );
        assert_eq!(
            hop_address(b"[0000:0000:0000:0000:0000:ffff:255.255.255.255]:65535"),
            Some(ip("255.255.255.255")),
            "the longest form fits"
        );
    }

    #[test]
    fn trust_is_by_range() {
        let t = nets(&["10.0.0.0/8", "2001:db8:1::/48"]);
        assert!(is_trusted(&t, ip("10.200.0.1")));
        assert!(is_trusted(&t, ip("::ffff:10.0.0.1")));
        assert!(!is_trusted(&t, ip("11.0.0.1")));
        assert!(is_trusted(&t, ip("2001:db8:1:ffff::1")));
        assert!(!is_trusted(&t, ip("2001:db8:2::1")));
        assert!(!is_trusted(&[], ip("127.0.0.1")), "nobody by default");
    }
}
