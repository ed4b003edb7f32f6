"""polyeval's recording peer: a counterpart process any driver can start
(PHP's drivers do, having no threads) to stand in for the other side of a
candidate's client. It records what it receives, one JSON object per line
in LOG, and answers as REPLY (JSON) says.

    python3 polyeval_ipc_peer.py KIND PORT LOG REPLY

KIND:
  http  records {"method","path","query","headers","body"}; REPLY
        {"status": 200, "headers": {...}, "body": "..."}
  tcp   records {"data"} per connection (text, latin-1), once the peer
        closed or was quiet for 0.5 s; REPLY {"data": "..."} is sent after
        a connection's first data (or nothing when null)
  udp   records {"data"} per datagram; REPLY {"data": "..."} answers each
  ws    records {"message"} per WebSocket message; REPLY {"data": "..."}
        answers each (null: echo)
"""

import json
import socket
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KIND, PORT, LOG, REPLY = sys.argv[1], int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
_lock = threading.Lock()


def record(item):
    with _lock, open(LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps(item, sort_keys=True) + "\n")


def http():
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def _handle(self):
            parts = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            payload = REPLY.get("body", "ok")
            if not isinstance(payload, str):
                payload = json.dumps(payload)
            data = payload.encode()
            self.send_response(int(REPLY.get("status", 200)))
            for k, v in (REPLY.get("headers") or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            record({
                "method": self.command,
                "path": parts.path,
                "query": urllib.parse.parse_qs(parts.query),
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body,
            })

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _handle

    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    server.daemon_threads = True
    server.serve_forever()


def tcp():
    reply = (REPLY or {}).get("data")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", PORT))
    listener.listen(16)

    def handle(conn):
        data = b""
        conn.settimeout(0.5)
        try:
            while True:
                try:
                    chunk = conn.recv(65536)
                except socket.timeout:
                    if data:
                        break
                    continue
                if not chunk:
                    break
                if not data and reply is not None:
                    conn.sendall(reply.encode("latin-1"))
                data += chunk
        except OSError:
            pass
        finally:
            record({"data": data.decode("latin-1")})
            conn.close()

    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def udp():
    reply = (REPLY or {}).get("data")
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", PORT))
    while True:
        data, peer = sock.recvfrom(65536)
        record({"data": data.decode("latin-1")})
        if reply is not None:
            sock.sendto(reply.encode("latin-1"), peer)


def ws():
    import asyncio

    import websockets

    reply = (REPLY or {}).get("data")

    async def handler(websocket, path=None):
        async for message in websocket:
            record({"message": message if isinstance(message, str) else message.decode("latin-1")})
            await websocket.send(message if reply is None else reply)

    async def main():
        async with websockets.serve(handler, "127.0.0.1", PORT):
            await asyncio.Future()

    asyncio.run(main())


{"http": http, "tcp": tcp, "udp": udp, "ws": ws}[KIND]()
