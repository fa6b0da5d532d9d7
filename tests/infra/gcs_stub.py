#!/usr/bin/python3
"""A stand-in for GCP's metadata server (an access token) and the GCS JSON API's object download,
for tests/infra/storage_gcp_test.sh. No GCS emulator is packaged for Debian.

usage: gcs_stub.py ROOT PORT_FILE
  ROOT/<bucket>/<object name> are the objects; an object under a folder named `refused` answers
  403 (a read the identity's IAM condition refuses). Listens on 127.0.0.1, a free port written to
  PORT_FILE. Each request is logged as "METHOD PATH" on stderr.
"""
import http.server
import os
import sys
import urllib.parse

TOKEN = "stub-token"


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, code, body=b"", kind="application/json"):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        print(f"GET {path}", file=sys.stderr, flush=True)
        if path == "/computeMetadata/v1/instance/service-accounts/default/token":
            if self.headers.get("Metadata-Flavor") != "Google":
                return self.reply(403)
            return self.reply(200, b'{"access_token":"' + TOKEN.encode() + b'","expires_in":3599,"token_type":"Bearer"}')
        prefix = "/storage/v1/b/"
        if not path.startswith(prefix) or "/o/" not in path or query != "alt=media":
            return self.reply(400, b'{"error": {"code": 400}}')
        if self.headers.get("Authorization") != "Bearer " + TOKEN:
            return self.reply(401, b'{"error": {"code": 401}}')
        bucket, _, encoded = path[len(prefix):].partition("/o/")
        if "/" in encoded:  # the JSON API takes the name encoded whole, '/' as %2F
            return self.reply(404, b'{"error": {"code": 404, "message": "Not Found"}}')
        name = urllib.parse.unquote_to_bytes(encoded)
        if b"/../" in b"/" + name + b"/":
            return self.reply(400, b'{"error": {"code": 400}}')
        if b"/refused/" in b"/" + name:
            return self.reply(403, b'{"error": {"code": 403, "message": "Forbidden"}}')
        file = os.path.join(os.fsencode(sys.argv[1]), bucket.encode(), name)
        if not os.path.isfile(file):
            return self.reply(404, b'{"error": {"code": 404, "message": "No such object"}}')
        with open(file, "rb") as f:
            self.reply(200, f.read(), "application/octet-stream")


def main():
    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[2] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    server.serve_forever()


if __name__ == "__main__":
    main()
