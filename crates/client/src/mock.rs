//! A tiny OpenAI-compatible HTTP/1.1 server on loopback, for tests (ours and
//! users' own) and offline experiments. Each request is answered by a handler
//! closure that can reply with JSON, raw bytes, a delay, a dropped connection
//! or a truncated body, so every failure mode of a real API can be staged.
//! The server records every request and the peak number in flight.

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A request as the handler sees it.
#[derive(Debug, Clone)]
pub struct MockRequest {
    /// 0-based arrival order over the server's lifetime.
    pub seq: usize,
    pub method: String,
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON (`Null` if it was not JSON).
    pub body: Value,
}

impl MockRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
    /// The content of the last user message (how tests recognise a prompt).
    pub fn last_user_message(&self) -> Option<&str> {
        self.body
            .get("messages")?
            .as_array()?
            .iter()
            .rev()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))?
            .get("content")?
            .as_str()
    }
    /// The requested `n` (1 when absent).
    pub fn n(&self) -> u64 {
        self.body.get("n").and_then(Value::as_u64).unwrap_or(1)
    }
}

/// How to answer one request.
#[derive(Debug, Clone)]
pub enum MockReply {
    Json {
        status: u16,
        body: Value,
        headers: Vec<(String, String)>,
    },
    /// Any body text (e.g. malformed JSON) with the given status.
    Raw {
        status: u16,
        body: String,
        headers: Vec<(String, String)>,
    },
    /// Close the connection without answering.
    Drop,
    /// Announce a body of `declared_len` bytes, send `body`, then close.
    Truncated { declared_len: usize, body: String },
    /// Wait, then answer.
    Delay(Duration, Box<MockReply>),
}

impl MockReply {
    /// A chat-completions response with one choice per content.
    pub fn completion(model: &str, contents: &[String]) -> MockReply {
        let choices: Vec<Value> = contents
            .iter()
            .enumerate()
            .map(|(i, c)| json!({"index": i, "message": {"role": "assistant", "content": c}, "finish_reason": "stop"}))
            .collect();
        MockReply::Json {
            status: 200,
            body: json!({
                "id": "chatcmpl-mock",
                "object": "chat.completion",
                "model": model,
                "choices": choices,
                "usage": {"prompt_tokens": 10, "completion_tokens": 5 * contents.len(), "total_tokens": 10 + 5 * contents.len()}
            }),
            headers: vec![],
        }
    }
    /// An OpenAI-style error body.
    pub fn error(status: u16, message: &str) -> MockReply {
        MockReply::Json {
            status,
            body: json!({"error": {"message": message, "type": "mock_error"}}),
            headers: vec![],
        }
    }
    pub fn with_header(self, name: &str, value: &str) -> MockReply {
        match self {
            MockReply::Json {
                status,
                body,
                mut headers,
            } => {
                headers.push((name.into(), value.into()));
                MockReply::Json {
                    status,
                    body,
                    headers,
                }
            }
            MockReply::Raw {
                status,
                body,
                mut headers,
            } => {
                headers.push((name.into(), value.into()));
                MockReply::Raw {
                    status,
                    body,
                    headers,
                }
            }
            other => other,
        }
    }
    pub fn delayed(self, d: Duration) -> MockReply {
        MockReply::Delay(d, Box::new(self))
    }
}

pub type Handler = Arc<dyn Fn(&MockRequest) -> MockReply + Send + Sync>;

#[derive(Default)]
struct State {
    log: Mutex<Vec<MockRequest>>,
    in_flight: AtomicUsize,
    peak_in_flight: AtomicUsize,
    /// Requests whose reply was written completely.
    answered: Mutex<Vec<usize>>,
}

/// A running server; it stops when dropped.
pub struct MockServer {
    addr: SocketAddr,
    state: Arc<State>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl MockServer {
    /// Start on 127.0.0.1 (random port) on its own runtime thread, so it works
    /// from synchronous tests and serves subprocesses.
    pub fn start(
        handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static,
    ) -> std::io::Result<MockServer> {
        Self::start_on(SocketAddr::from(([127, 0, 0, 1], 0)), handler)
    }

    /// [`MockServer::start`] on a given address, e.g. the one of a server
    /// that was dropped, to stage a server going away and coming back.
    pub fn start_on(
        addr: SocketAddr,
        handler: impl Fn(&MockRequest) -> MockReply + Send + Sync + 'static,
    ) -> std::io::Result<MockServer> {
        let handler: Handler = Arc::new(handler);
        let std_listener = std::net::TcpListener::bind(addr)?;
        std_listener.set_nonblocking(true)?;
        let addr = std_listener.local_addr()?;
        let state = Arc::new(State::default());
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let st = state.clone();
        let thread = std::thread::Builder::new()
            .name("mock-server".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        eprintln!("mock server: cannot start a runtime: {e}");
                        return;
                    }
                };
                rt.block_on(async move {
                    let listener = match TcpListener::from_std(std_listener) {
                        Ok(l) => l,
                        Err(e) => {
                            eprintln!("mock server: {e}");
                            return;
                        }
                    };
                    tokio::select! {
                        _ = accept_loop(listener, handler, st) => {}
                        _ = stop_rx => {}
                    }
                });
                rt.shutdown_timeout(Duration::from_millis(100));
            })?;
        Ok(MockServer {
            addr,
            state,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT/v1`
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<MockRequest> {
        self.state.log.lock().map(|l| l.clone()).unwrap_or_default()
    }
    pub fn request_count(&self) -> usize {
        self.state.log.lock().map(|l| l.len()).unwrap_or(0)
    }
    /// Sequence numbers of requests whose reply was fully written.
    pub fn answered(&self) -> Vec<usize> {
        self.state
            .answered
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default()
    }
    /// The largest number of requests that were being handled at the same time.
    pub fn peak_in_flight(&self) -> usize {
        self.state.peak_in_flight.load(Ordering::SeqCst)
    }
    /// Forget the request log (e.g. between phases of a test).
    pub fn clear_log(&self) {
        if let Ok(mut l) = self.state.log.lock() {
            l.clear();
        }
        if let Ok(mut a) = self.state.answered.lock() {
            a.clear();
        }
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn accept_loop(listener: TcpListener, handler: Handler, state: Arc<State>) {
    let seq = Arc::new(AtomicUsize::new(0));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let (h, st, seq) = (handler.clone(), state.clone(), seq.clone());
        tokio::spawn(async move {
            let _ = serve_connection(stream, h, st, seq).await;
        });
    }
}

async fn serve_connection(
    mut stream: TcpStream,
    handler: Handler,
    state: Arc<State>,
    seq: Arc<AtomicUsize>,
) -> std::io::Result<()> {
    let mut buf: Vec<u8> = Vec::new();
    loop {
        // Read the head.
        let head_end = loop {
            if let Some(p) = find(&buf, b"\r\n\r\n") {
                break p;
            }
            let mut chunk = [0u8; 8192];
            let n = stream.read(&mut chunk).await?;
            if n == 0 {
                return Ok(());
            }
            buf.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let mut lines = head.split("\r\n");
        let request_line = lines.next().unwrap_or_default();
        let mut parts = request_line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_string();
        let path = parts.next().unwrap_or_default().to_string();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let len: usize = headers
            .iter()
            .find(|(k, _)| k == "content-length")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let body_start = head_end + 4;
        while buf.len() < body_start + len {
            let mut chunk = [0u8; 8192];
            let n = stream.read(&mut chunk).await?;
            if n == 0 {
                return Ok(());
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        let body_bytes: Vec<u8> = buf[body_start..body_start + len].to_vec();
        buf.drain(..body_start + len);
        let body = serde_json::from_slice(&body_bytes).unwrap_or(Value::Null);
        let req = MockRequest {
            seq: seq.fetch_add(1, Ordering::SeqCst),
            method,
            path,
            headers,
            body,
        };
        if let Ok(mut log) = state.log.lock() {
            log.push(req.clone());
        }
        let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        state.peak_in_flight.fetch_max(now, Ordering::SeqCst);
        let mut reply = handler(&req);
        let result = async {
            loop {
                match reply {
                    MockReply::Delay(d, inner) => {
                        tokio::time::sleep(d).await;
                        reply = *inner;
                    }
                    MockReply::Drop => return Ok(false),
                    MockReply::Truncated { declared_len, body } => {
                        let msg = format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {declared_len}\r\n\r\n{body}"
                        );
                        stream.write_all(msg.as_bytes()).await?;
                        stream.flush().await?;
                        return Ok(false);
                    }
                    MockReply::Json { status, body, headers } => {
                        write_reply(&mut stream, status, &body.to_string(), &headers).await?;
                        return Ok(true);
                    }
                    MockReply::Raw { status, body, headers } => {
                        write_reply(&mut stream, status, &body, &headers).await?;
                        return Ok(true);
                    }
                }
            }
        }
        .await;
        state.in_flight.fetch_sub(1, Ordering::SeqCst);
        match result {
            Ok(true) => {
                if let Ok(mut a) = state.answered.lock() {
                    a.push(req.seq);
                }
            }
            Ok(false) => return Ok(()),
            Err(e) => return Err(e),
        }
    }
}

async fn write_reply(
    stream: &mut TcpStream,
    status: u16,
    body: &str,
    headers: &[(String, String)],
) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    };
    let mut msg = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        msg.push_str(&format!("{k}: {v}\r\n"));
    }
    msg.push_str("\r\n");
    msg.push_str(body);
    stream.write_all(msg.as_bytes()).await?;
    stream.flush().await
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
