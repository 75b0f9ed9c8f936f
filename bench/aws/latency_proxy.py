"""A threaded HTTP proxy that adds fixed latency to every request before forwarding it to
moto, so the benchmark can show requests overlapping (real AWS is latency-bound and
serves requests in parallel; moto's server is CPU-bound Python and serialises them).

usage: latency_proxy.py LISTEN_PORT UPSTREAM_URL DELAY_SECONDS
"""
import sys
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, UPSTREAM, DELAY = int(sys.argv[1]), sys.argv[2].rstrip("/"), float(sys.argv[3])


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def forward(self):
        time.sleep(DELAY)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        request = urllib.request.Request(UPSTREAM + self.path, data=body or None, method=self.command)
        for k, v in self.headers.items():
            if k.lower() not in ("host", "content-length", "connection"):
                request.add_header(k, v)
        try:
            response = urllib.request.urlopen(request)
            status, headers, data = response.status, response.headers, response.read()
        except urllib.error.HTTPError as e:
            status, headers, data = e.code, e.headers, e.read()
        self.send_response(status)
        for k, v in headers.items():
            if k.lower() not in ("content-length", "connection", "transfer-encoding", "server", "date"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_HEAD = forward


ThreadingHTTPServer(("127.0.0.1", PORT), Proxy).serve_forever()
