#!/usr/bin/env python3
"""Usage: strong_bot_tables.py PORT TABLES SECONDS

Opens TABLES tables on the cor-server listening on 127.0.0.1:PORT, each with a guest at seat 0,
three strong bots, a 1 s real-time clock and on_timeout "forfeit": the guest never moves and
forfeits, so the strong bot plays all four seats to the end. Holds the connections for SECONDS.
With cor-loadgen --port, it measures what tables of strong bots cost the other tables
(docs/benchmarks.md, "Strong bot"). Python's standard library only."""
import base64, json, os, socket, struct, sys, time

def ws_connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += s.recv(4096)
    assert b" 101 " in buf.split(b"\r\n")[0], buf
    return s, buf.split(b"\r\n\r\n", 1)[1]

def send(s, obj):
    data = json.dumps(obj).encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    n = len(data)
    head += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
    s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

def recv_msgs(s, rest, until):
    """Reads frames until a message with type `until` arrives; returns it and the leftover."""
    buf = rest
    while True:
        while len(buf) >= 2:
            n = buf[1] & 0x7F; off = 2
            if n == 126:
                if len(buf) < 4: break
                n = struct.unpack(">H", buf[2:4])[0]; off = 4
            elif n == 127:
                if len(buf) < 10: break
                n = struct.unpack(">Q", buf[2:10])[0]; off = 10
            if len(buf) < off + n: break
            payload, buf = buf[off:off + n], buf[off + n:]
            try:
                m = json.loads(payload)
            except Exception:
                continue
            if m.get("type") == until:
                return m, buf
        chunk = s.recv(65536)
        if not chunk:
            raise EOFError
        buf += chunk

def main():
    port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    conns = []
    for i in range(count):
        s, rest = ws_connect(port)
        send(s, {"type": "hello", "name": f"Idle{i}"})
        _, rest = recv_msgs(s, rest, "welcome")
        send(s, {"type": "create_table", "options": {"players": 4, "rules": "yucata", "shrine": False},
                 "bots": [None, "strong", "strong", "strong"], "public": False,
                 "time_control": {"kind": "realtime", "seconds": 1, "on_timeout": "forfeit"}})
        created, rest = recv_msgs(s, rest, "table_created")
        table = created["table"]["id"]
        send(s, {"type": "start", "table": table})
        _, rest = recv_msgs(s, rest, "started")
        conns.append(s)
    print(f"{count} strong-bot tables started", file=sys.stderr, flush=True)
    time.sleep(seconds)

main()
