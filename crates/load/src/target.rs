//! The server to load: loopback only. A load tool pointed at someone else's server is a
//! denial-of-service tool, so any address that is not this machine is refused before a
//! single connection is opened.

use std::net::SocketAddr;

/// Resolves `HOST:PORT` and accepts it only if every address it names is loopback
/// (127.0.0.0/8 or ::1); returns the first.
pub async fn loopback(addr: &str) -> Result<SocketAddr, String> {
    let resolved: Vec<SocketAddr> = tokio::net::lookup_host(addr)
        .await
        .map_err(|e| format!("cannot resolve {addr:?} (expected HOST:PORT): {e}"))?
        .collect();
    check(addr, &resolved)
}

fn check(addr: &str, resolved: &[SocketAddr]) -> Result<SocketAddr, String> {
    if let Some(remote) = resolved.iter().find(|a| !a.ip().is_loopback()) {
        return Err(format!(
            "refusing {addr:?}: it resolves to {}, which is not a loopback address; \
             dominion-load only loads a server on this machine (127.0.0.1 or ::1)",
            remote.ip()
        ));
    }
    resolved
        .first()
        .copied()
        .ok_or_else(|| format!("{addr:?} resolves to no address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn loopback_addresses_are_accepted() {
        assert_eq!(
            loopback("127.0.0.1:8080").await,
            Ok("127.0.0.1:8080".parse().unwrap())
        );
        assert_eq!(
            loopback("127.0.0.2:1").await,
            Ok("127.0.0.2:1".parse().unwrap())
        );
        assert_eq!(loopback("[::1]:9").await, Ok("[::1]:9".parse().unwrap()));
    }

    #[tokio::test]
    async fn other_addresses_are_refused() {
        for addr in [
            "10.0.0.1:8080",
            "0.0.0.0:8080",
            "192.168.1.5:80",
            "[2001:db8::1]:80",
        ] {
            let err = loopback(addr).await.unwrap_err();
            assert!(err.contains("not a loopback address"), "{addr}: {err}");
        }
        assert!(loopback("no-port").await.is_err());
    }

    #[test]
    fn one_remote_address_among_loopback_ones_refuses_the_name() {
        let mixed = [
            "127.0.0.1:80".parse().unwrap(),
            "10.1.2.3:80".parse().unwrap(),
        ];
        assert!(check("mixed.example:80", &mixed).is_err());
    }
}
