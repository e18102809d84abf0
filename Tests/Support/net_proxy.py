#!/usr/bin/env python3
"""A TCP proxy on 127.0.0.1 that plays a bad network between a client and a local server, for
the end-to-end tests (Tests/EndToEndTests/NetworkOutageTests.swift) and the TLS benchmark
(bench/tls_bench.py). Prints "PORT <n>" once it listens.

- `--listen-port` (0: any free one, kept for the proxy's life), `--target-port` (on 127.0.0.1).
- `--rtt-ms`: every chunk read from either side is sent on RTT/2 later (each direction on its
  own, in order), so a request and its answer take one round trip more than without the proxy,
  whatever their size, as on a long link with ample bandwidth; a connection takes one more
  round trip to open (nothing the client sends leaves before one RTT after it connected: TCP's
  handshake), so a first request and its answer take 2 RTT, as on a real link.
- `--control-dir`: switch files, read as connections come and every 20 ms:
  - `gate-down`: the network is gone. The proxy stops listening (a new connection is refused,
    as by a host that is not there) and resets every open connection (RST, not FIN).
    Removing the file listens again on the same port.
  - `flap` holding SECONDS (a number > 0): the gate goes down and up every SECONDS, starting
    down, while the file exists (gate-down, if present, wins).
- `--stats-file`: JSON kept up to date: `accepted` (connections accepted since start),
  `open` (connections open now), `refused_periods` (how many times the gate went down),
  `down` (whether it is down now).
Listens on 127.0.0.1 only and connects only to 127.0.0.1.
"""
import argparse
import json
import os
import select
import socket
import struct
import sys
import threading
import time

LOCK = threading.Lock()
STATS = {"accepted": 0, "open": 0, "refused_periods": 0, "down": False}
CONNECTIONS = set()
CHUNK = 65536


def write_stats(path):
    """Called with LOCK held."""
    if path:
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(STATS, f)
        os.replace(tmp, path)


def reset(sock):
    """Closes with RST: what a client sees when the network between drops a connection. Reading is
    shut first: a thread blocked in recv on the socket holds it open (no RST would go) until woken."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RD)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


class Link:
    """One client connection and its connection to the target, each direction delayed by
    `delay` seconds per chunk."""

    def __init__(self, client, target_port, delay, stats_file):
        self.accepted = time.monotonic()
        self.client = client
        self.target_port = target_port
        self.delay = delay
        self.stats_file = stats_file
        self.server = None
        self.closed = False
        self.lock = threading.Lock()

    def start(self):
        threading.Thread(target=self.run, daemon=True).start()

    def run(self):
        try:
            self.server = socket.create_connection(("127.0.0.1", self.target_port))
            self.server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            self.drop()
            return
        if self.closed:
            reset(self.server)
            return
        # The client's bytes leave no earlier than the end of the handshake: one RTT after it connected.
        handshake = self.accepted + 2 * self.delay
        for source, sink, not_before in ((self.client, self.server, handshake), (self.server, self.client, 0)):
            queue = []
            ready = threading.Condition()
            threading.Thread(target=self.pump_in, args=(source, queue, ready, not_before), daemon=True).start()
            threading.Thread(target=self.pump_out, args=(sink, source, queue, ready), daemon=True).start()

    def pump_in(self, source, queue, ready, not_before):
        """Reads chunks and queues each with the time it may leave; b"" marks the end, None a reset."""
        while True:
            try:
                data = source.recv(CHUNK)
            except OSError:
                data = None
            with ready:
                queue.append((max(time.monotonic(), not_before) + self.delay, data))
                ready.notify()
            if not data:
                return

    def pump_out(self, sink, source, queue, ready):
        while True:
            with ready:
                while not queue:
                    ready.wait()
                due, data = queue.pop(0)
            wait = due - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            if data is None:
                # The other side was reset (or the gate went down): pass the reset on.
                self.drop()
                return
            if data == b"":
                try:
                    sink.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                self.half_closed()
                return
            try:
                sink.sendall(data)
            except OSError:
                self.drop()
                return

    def half_closed(self):
        """Both directions ended: close the two sockets (once)."""
        with self.lock:
            self.halves = getattr(self, "halves", 0) + 1
            done = self.halves == 2
        if done:
            self.finish(graceful=True)

    def drop(self):
        self.finish(graceful=False)

    def finish(self, graceful):
        with self.lock:
            if self.closed:
                return
            self.closed = True
        for s in (self.client, self.server):
            if s is None:
                continue
            if graceful:
                try:
                    s.close()
                except OSError:
                    pass
            else:
                reset(s)
        with LOCK:
            CONNECTIONS.discard(self)
            STATS["open"] = len(CONNECTIONS)
            write_stats(self.stats_file)


class Gate:
    """The listening socket, opened and closed as the switch files say."""

    def __init__(self, port, target_port, delay, control_dir, stats_file):
        self.port = port
        self.target_port = target_port
        self.delay = delay
        self.control_dir = control_dir
        self.stats_file = stats_file
        self.listener = None
        self.flap_started = None

    def open(self):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(128)
        s.setblocking(False)
        self.port = s.getsockname()[1]
        self.listener = s

    def close(self):
        """Stops listening (connections waiting to be accepted are refused with it) and resets
        every open connection."""
        s, self.listener = self.listener, None
        s.close()
        with LOCK:
            links = list(CONNECTIONS)
            STATS["refused_periods"] += 1
        for link in links:
            link.drop()

    def accept_ready(self, timeout):
        """Accepts every connection waiting, for at most `timeout` seconds (one thread only: the
        listener is opened, used and closed by `run` alone)."""
        if select.select([self.listener], [], [], timeout)[0]:
            while True:
                try:
                    client, _ = self.listener.accept()
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    return
                client.setblocking(True)
                client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                link = Link(client, self.target_port, self.delay, self.stats_file)
                with LOCK:
                    STATS["accepted"] += 1
                    CONNECTIONS.add(link)
                    STATS["open"] = len(CONNECTIONS)
                    write_stats(self.stats_file)
                link.start()

    def switch(self, name):
        """What a switch file holds (stripped), or None when it is absent."""
        if not self.control_dir:
            return None
        try:
            with open(os.path.join(self.control_dir, name)) as f:
                return f.read().strip()
        except FileNotFoundError:
            return None

    def wanted_down(self, now):
        if self.switch("gate-down") is not None:
            return True
        flap = self.switch("flap")
        if flap is None:
            self.flap_started = None
            return False
        try:
            period = float(flap)
        except ValueError:
            period = 0
        if not period > 0:
            return False
        if self.flap_started is None:
            self.flap_started = now
        return int((now - self.flap_started) / period) % 2 == 0

    def run(self):
        self.open()
        print(f"PORT {self.port}", flush=True)
        while True:
            down = self.wanted_down(time.monotonic())
            if down and self.listener is not None:
                self.close()
            elif not down and self.listener is None:
                try:
                    self.open()
                except OSError:
                    # The port held for a moment (TIME_WAIT, a bind elsewhere): try again next turn.
                    pass
            with LOCK:
                if STATS["down"] != down:
                    STATS["down"] = down
                    write_stats(self.stats_file)
            if self.listener is not None:
                self.accept_ready(0.02)
            else:
                time.sleep(0.02)


def main():
    ap = argparse.ArgumentParser(description="a TCP proxy with latency, outages and flapping")
    ap.add_argument("--listen-port", type=int, default=0)
    ap.add_argument("--target-port", type=int, required=True)
    ap.add_argument("--rtt-ms", type=float, default=0, help="round-trip time added (RTT/2 each way, per chunk)")
    ap.add_argument("--control-dir", default=None, help="switch files: gate-down, flap")
    ap.add_argument("--stats-file", default=None, help="kept up to date with the connection counts")
    args = ap.parse_args()
    with LOCK:
        write_stats(args.stats_file)
    gate = Gate(args.listen_port, args.target_port, args.rtt_ms / 2000.0, args.control_dir, args.stats_file)
    try:
        gate.run()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
