#!/usr/bin/env python3
"""Streaming measures for the gateway, on loopback (127.0.0.1 only; every run is bounded in time).

  ssebench.py serve PORT
      A small OpenAI-style upstream: every POST is answered with a chunked text/event-stream of
      `max_tokens` chat.completion.chunk events, one every `x_interval_ms` (fields of the request
      body, which the gateway passes through byte for byte). Each event carries "t": the upstream's
      CLOCK_REALTIME in ns just before the write, so a client on the same machine can tell how long
      that event took to reach it (the client reads the kernel's receive timestamp, same clock).

  ssebench.py latency URL [--streams S] [--chunks N] [--interval-ms I] [--label L] [--dump FILE]
      S concurrent streams of N events; prints one RESULT line: per-event delay (arrival minus "t")
      p50/p99/max and time to first byte (request written -> first event) p50/p99, all in µs.
      --dump appends each event's delay in ns to FILE, one per line.

  ssebench.py pooled DIR
      Reads DIR/delays.direct, DIR/delays.switchyard and DIR/delays.haproxy (written by latency --dump)
      and prints the pooled p50/p99/p99.9 of each, added to direct's, and Switchyard's p99 ratio to
      HAProxy's.

  ssebench.py concurrency URL --pid PID [--streams 1000] [--hold-s 3]
      Opens S streams at once (long, slow ones), waits until every one has received its first event
      (all in flight at the node), samples VmRSS of PID before and during, prints a RESULT line with
      the memory per open stream, then closes everything.

  ssebench.py requests URL [--count 2000] [--conns 4]
      Exactly COUNT non-streamed chat completions over CONNS keep-alive connections (for measures
      per request that do not depend on time: instructions under callgrind, system calls under strace).
"""

import argparse
import asyncio
import json
import re
import selectors
import socket
import struct
import sys
import time

T_RE = re.compile(rb'"t":(\d+)\}')
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; Python's module may not name it


# --------------------------------------------------------------------------------------------- upstream
async def serve_conn(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            method, target = lines[0].split(b" ")[:2]
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            body = await reader.readexactly(length) if length else b""
            if method != b"POST":
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n"
                             b'{"status":"ok"}')
                await writer.drain()
                continue
            req = json.loads(body)
            chunks = int(req.get("max_tokens", 16))
            interval = float(req.get("x_interval_ms", 10)) / 1000.0
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
            loop = asyncio.get_running_loop()
            start = loop.time()
            for i in range(chunks):
                if i:
                    # Absolute schedule: lateness of one event does not shift the next.
                    delay = start + i * interval - loop.time()
                    if delay > 0:
                        await asyncio.sleep(delay)
                ev = (b'data: {"id":"chatcmpl-b","object":"chat.completion.chunk","model":"m1","choices":[{"index":0,'
                      b'"delta":{"content":"tok"},"finish_reason":null}],"t":' + str(time.time_ns()).encode() + b"}\n\n")
                writer.write(b"%x\r\n%s\r\n" % (len(ev), ev))
                await writer.drain()
            done = b"data: [DONE]\n\n"
            writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(done), done))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def serve(port):
    server = await asyncio.start_server(serve_conn, "127.0.0.1", port, backlog=4096)
    print("serving", flush=True)
    async with server:
        await server.serve_forever()


# --------------------------------------------------------------------------------------------- clients
def split_url(url):
    hostport = url.split("//", 1)[1].split("/", 1)[0]
    host, port = hostport.rsplit(":", 1)
    return host, int(port)


def request_bytes(host, port, chunks, interval_ms):
    body = json.dumps({"model": "m1", "messages": [{"role": "user", "content": "Hello"}], "stream": True,
                       "max_tokens": chunks, "x_interval_ms": interval_ms}).encode()
    return (b"POST /v1/chat/completions HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (host.encode(), port, len(body))) + body


async def one_stream(host, port, chunks, interval_ms, delays, ttfbs, first_event=None, hold=None):
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(request_bytes(host, port, chunks, interval_ms))
        sent = time.monotonic_ns()
        buf = b""
        seen = 0
        while True:
            data = await reader.read(65536)
            now = time.monotonic_ns()
            if not data:
                break
            buf += data
            last = 0
            for m in T_RE.finditer(buf):
                if seen == 0:
                    ttfbs.append(now - sent)
                    if first_event is not None:
                        first_event()
                seen += 1
                delays.append(now - int(m.group(1)))
                last = m.end()
            buf = buf[last:]
            if hold is not None and seen:
                await hold.wait()
                break
            if b"[DONE]" in buf:
                break
    finally:
        writer.close()
    return seen


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def latency(args):
    """Arrival times are the kernel's receive timestamps (SO_TIMESTAMPNS), not when this process got
    around to reading: on a loaded machine the client's own scheduling delay would otherwise swamp what
    is measured. The upstream stamps events with the same clock (CLOCK_REALTIME)."""
    host, port = split_url(args.url)
    delays, ttfbs = [], []
    sel = selectors.DefaultSelector()
    for _ in range(args.streams):
        sock = socket.create_connection((host, port))
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(request_bytes(host, port, args.chunks, args.interval_ms))
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ, {"sent": time.time_ns(), "buf": b"", "seen": 0})
    open_streams = args.streams
    deadline = time.monotonic() + 120
    while open_streams and time.monotonic() < deadline:
        for key, _ in sel.select(timeout=1):
            st = key.data
            data, anc, _, _ = key.fileobj.recvmsg(65536, socket.CMSG_SPACE(16))
            arrived = time.time_ns()
            for level, kind, cdata in anc:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    sec, nsec = struct.unpack("qq", cdata[:16])
                    arrived = sec * 1_000_000_000 + nsec
            done = not data
            st["buf"] += data
            last = 0
            for m in T_RE.finditer(st["buf"]):
                if st["seen"] == 0:
                    ttfbs.append(arrived - st["sent"])
                st["seen"] += 1
                delays.append(arrived - int(m.group(1)))
                last = m.end()
            st["buf"] = st["buf"][last:]
            if done or b"[DONE]" in st["buf"]:
                sel.unregister(key.fileobj)
                key.fileobj.close()
                open_streams -= 1
    us = lambda ns: ns / 1000.0
    if args.dump:
        # Every event's delay, one per line in ns, so a bench can pool rounds: the 99th percentile of
        # 9,000 events is a steadier figure than the median of nine 10th-worst events.
        with open(args.dump, "a") as f:
            f.write("".join("%d\n" % d for d in delays))
    print("RESULT %s events=%d delay_p50_us=%.0f delay_p99_us=%.0f delay_max_us=%.0f ttfb_p50_us=%.0f ttfb_p99_us=%.0f"
          % (args.label, len(delays), us(pct(delays, 0.5)), us(pct(delays, 0.99)), us(max(delays)),
             us(pct(ttfbs, 0.5)), us(pct(ttfbs, 0.99))), flush=True)


def pooled(args):
    """All rounds' events pooled per target: a round's p99 is its 10th-worst event, so it moves with a
    few late wake-ups; 9,000 events give a p99 that a handful of them cannot decide."""
    d = {}
    for t in ("direct", "switchyard", "haproxy"):
        with open("%s/delays.%s" % (args.dir, t)) as f:
            d[t] = [int(line) for line in f]
    us = lambda t, q: pct(d[t], q) / 1000.0
    added = lambda t, q: us(t, q) - us("direct", q)
    print("pooled over all rounds (%d events each): µs" % len(d["direct"]))
    print("| target | p50 | p99 | p99.9 | added p50 | added p99 |")
    print("| --- | --- | --- | --- | --- | --- |")
    for t in d:
        print("| %s | %.0f | %.0f | %.0f | %.0f | %.0f |"
              % (t, us(t, .5), us(t, .99), us(t, .999), added(t, .5), added(t, .99)))
    print("switchyard/haproxy: p99 %.2f×, added p99 %.2f× (target ≤ 1.0)"
          % (us("switchyard", .99) / us("haproxy", .99), added("switchyard", .99) / max(1e-9, added("haproxy", .99))))


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


async def concurrency(args):
    host, port = split_url(args.url)
    before = rss_kib(args.pid)
    hold = asyncio.Event()
    started = 0
    all_started = asyncio.Event()

    def first():
        nonlocal started
        started += 1
        if started == args.streams:
            all_started.set()

    delays, ttfbs = [], []
    tasks = []
    for i in range(args.streams):
        # Long, slow streams: they stay in flight at the node for the whole measurement.
        tasks.append(asyncio.create_task(one_stream(host, port, 10000, 1000, delays, ttfbs, first, hold)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # let the accept queue drain
    try:
        await asyncio.wait_for(all_started.wait(), timeout=60)
    except asyncio.TimeoutError:
        print("concurrency: only %d of %d streams started" % (started, args.streams), file=sys.stderr)
    samples = []
    end = time.monotonic() + args.hold_s
    while time.monotonic() < end:
        samples.append(rss_kib(args.pid))
        await asyncio.sleep(0.25)
    during = max(samples)
    hold.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    per = (during - before) / max(1, started)
    print("RESULT concurrency streams=%d rss_before_kib=%d rss_during_kib=%d per_stream_kib=%.1f"
          % (started, before, during, per), flush=True)


async def fixed_requests(args):
    """Exactly count non-streamed requests over conns keep-alive connections (for per-request costs)."""
    host, port = split_url(args.url)
    body = json.dumps({"model": "m1", "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 1}).encode()
    req = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
           b"Content-Length: %d\r\n\r\n" % (host.encode(), port, len(body))) + body
    per = [args.count // args.conns + (1 if i < args.count % args.conns else 0) for i in range(args.conns)]

    async def conn(n):
        reader, writer = await asyncio.open_connection(host, port)
        for _ in range(n):
            writer.write(req)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if not head.startswith(b"HTTP/1.1 200"):
                raise SystemExit("unexpected response: %r" % head[:40])
            await reader.readexactly(length)
        writer.close()

    await asyncio.wait_for(asyncio.gather(*[conn(n) for n in per]), timeout=600)
    print("RESULT requests=%d" % args.count, flush=True)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("port", type=int)
    l = sub.add_parser("latency")
    l.add_argument("url")
    l.add_argument("--streams", type=int, default=10)
    l.add_argument("--chunks", type=int, default=100)
    l.add_argument("--interval-ms", type=float, default=10)
    l.add_argument("--label", default="target")
    l.add_argument("--dump", help="append every event's delay (ns, one per line) to this file")
    o = sub.add_parser("pooled")
    o.add_argument("dir")
    c = sub.add_parser("concurrency")
    c.add_argument("url")
    c.add_argument("--pid", type=int, required=True)
    c.add_argument("--streams", type=int, default=1000)
    c.add_argument("--hold-s", type=float, default=3)
    q = sub.add_parser("requests")
    q.add_argument("url")
    q.add_argument("--count", type=int, default=2000)
    q.add_argument("--conns", type=int, default=4)
    args = p.parse_args()
    if args.cmd == "serve":
        asyncio.run(serve(args.port))
    elif args.cmd == "latency":
        latency(args)
    elif args.cmd == "pooled":
        pooled(args)
    elif args.cmd == "requests":
        asyncio.run(fixed_requests(args))
    else:
        asyncio.run(concurrency(args))


if __name__ == "__main__":
    main()
