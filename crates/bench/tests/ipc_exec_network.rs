//! Executed CrossPL-IPC programs talk over loopback inside their own
//! network namespace and reach nothing outside it: a driver and the
//! candidate it drives both try to connect to a TCP server of this test,
//! listening on every address of the host, and neither reaches it, while a
//! connection between the two over the sandbox's loopback works (so the
//! program's networking itself is not broken) and the host reaches the same
//! server (so it is really there). Needs the installed IPC runtime
//! (`polyeval setup ipc-runtime`); fails, never skips, without it.

use polyeval_bench::EvalOptions;
use polyeval_bench::IpcDriver;
use polyeval_lang::value::Value;
use polyeval_lang::Language;
use std::io::Read;
use std::net::{IpAddr, Ipv4Addr, TcpListener, TcpStream, UdpSocket};
use std::time::Duration;

/// The candidate: a client that reports whether it could connect.
const CANDIDATE: &str = r#"
import errno
import socket

def reach(host, port):
    try:
        s = socket.create_connection((host, port), timeout=3)
        s.sendall(b"from the candidate")
        s.close()
        return "connected"
    except socket.timeout:
        return "timeout"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
"#;

/// The driver: the candidate and the driver itself try the host's
/// addresses; then the candidate connects to the driver's own server.
fn driver(host_ip: IpAddr, port: u16) -> String {
    format!(
        r#"
import errno
import socket
import polyeval_ipc as ipc
import solution

def driver_reach(host, port):
    try:
        s = socket.create_connection((host, port), timeout=3)
        s.sendall(b"from the driver")
        s.close()
        return "connected"
    except socket.timeout:
        return "timeout"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))

ipc.check(lambda: solution.reach("{host_ip}", {port}))
ipc.check(lambda: solution.reach("127.0.0.1", {port}))
ipc.check(lambda: driver_reach("{host_ip}", {port}))
ipc.check(lambda: driver_reach("127.0.0.1", {port}))
inside = ipc.TcpRecorder(9100)
ipc.check(lambda: solution.reach("127.0.0.1", 9100))
ipc.check(lambda: inside.wait(1)[0])
"#
    )
}

/// The host's address on its default route (no packet is sent: a UDP
/// socket's `connect` only picks the route), else the first non-loopback
/// address `hostname -I` lists.
fn host_address() -> IpAddr {
    let routed = UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("192.0.2.1:9").map(|_| s))
        .and_then(|s| s.local_addr())
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified());
    routed.unwrap_or_else(|| {
        let out = std::process::Command::new("hostname")
            .arg("-I")
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .split_whitespace()
            .filter_map(|w| w.parse::<IpAddr>().ok())
            .find(|ip| ip.is_ipv4() && !ip.is_loopback())
            .expect("the host has no non-loopback IPv4 address to test with")
    })
}

#[test]
fn an_outside_address_is_unreachable_from_a_driver_and_a_candidate() {
    let host_ip = host_address();
    let listener = TcpListener::bind((Ipv4Addr::UNSPECIFIED, 0)).unwrap();
    let port = listener.local_addr().unwrap().port();
    // The server is reachable from the host on both addresses.
    for ip in [host_ip, IpAddr::V4(Ipv4Addr::LOCALHOST)] {
        let client = TcpStream::connect_timeout(&(ip, port).into(), Duration::from_secs(3));
        assert!(
            client.is_ok(),
            "the host cannot reach its own server on {ip}"
        );
        let (mut accepted, _) = listener.accept().unwrap();
        drop(client);
        let mut sink = Vec::new();
        let _ = accepted.read_to_end(&mut sink);
    }
    listener.set_nonblocking(true).unwrap();

    let evaluator = polyeval_bench::crosspl_ipc_exec::IpcExecEvaluator::new(
        &EvalOptions {
            jobs: Some(1),
            ..Default::default()
        },
        None,
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
    let job = evaluator
        .job(
            Language::Python,
            CANDIDATE,
            &IpcDriver {
                driver: driver(host_ip, port),
                files: Vec::new(),
            },
            CANDIDATE,
        )
        .unwrap();
    let outcome = evaluator.run(&[job], &|| {}).pop().unwrap();
    let reference = polyeval_bench::crosspl_ipc_exec::reference_of(Language::Python, &outcome)
        .unwrap_or_else(|e| panic!("{e}\nstderr: {}", outcome.stderr));
    let observed: Vec<String> = reference
        .observations
        .iter()
        .map(|v| match v {
            Value::Str(s) => s.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(observed.len(), 6, "{observed:?}");
    // The host's address: no route out of the namespace (or at worst no
    // answer); the sandbox's 127.0.0.1 is its own, where nothing listens on
    // the host server's port.
    for (who, result) in [
        ("candidate → host address", &observed[0]),
        ("driver → host address", &observed[2]),
    ] {
        assert!(
            ["ENETUNREACH", "EHOSTUNREACH", "timeout"].contains(&result.as_str()),
            "{who}: {result}"
        );
    }
    assert_eq!(observed[1], "ECONNREFUSED", "candidate → 127.0.0.1");
    assert_eq!(observed[3], "ECONNREFUSED", "driver → 127.0.0.1");
    // Inside the namespace the two do talk.
    assert_eq!(observed[4], "connected");
    assert!(
        observed[5].contains("from the candidate"),
        "{}",
        observed[5]
    );
    // And nothing arrived at the host's server.
    match listener.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        Ok((_, from)) => panic!("a sandboxed program reached the host's server (from {from})"),
        Err(e) => panic!("{e}"),
    }
}
