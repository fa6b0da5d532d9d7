"""What the GCS test needs of Google Cloud beside storage, which no emulator provides: a FAKE of the
metadata server's token (a VM's service account cannot exist here), of Secret Manager's
`versions/latest:access` (no emulator of it is published), and of GCS refusing a read to an
identity without the grant (gcp-storage-emulator checks no permissions). Each answers as Google's
documentation says; the objects themselves are gcp-storage-emulator's. Every request is logged.

usage: gcp_fakes.py PORT_FILE SECRET_NAME SECRET_FILE
  GET /computeMetadata/v1/instance/service-accounts/default/token  (Metadata-Flavor: Google) -> token
  GET /v1/SECRET_NAME/versions/latest:access  (Authorization: Bearer fake-token) -> base64 payload
  anything else under /storage/ or /upload/ -> 403, as GCS answers an identity without the grant
"""
import base64
import http.server
import json
import os
import sys

TOKEN = "fake-token"


class Handler(http.server.BaseHTTPRequestHandler):
    secret_name = ""
    secret_value = b""

    def log_message(self, fmt, *args):
        print(fmt % args, flush=True)

    def reply(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/computeMetadata/v1/instance/service-accounts/default/token":
            if self.headers.get("Metadata-Flavor") != "Google":
                return self.reply(403, {"error": "Missing Metadata-Flavor:Google header"})
            return self.reply(200, {"access_token": TOKEN, "expires_in": 3599, "token_type": "Bearer"})
        if self.path == f"/v1/{self.secret_name}/versions/latest:access":
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                return self.reply(401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}})
            return self.reply(200, {"name": f"{self.secret_name}/versions/1",
                                    "payload": {"data": base64.b64encode(self.secret_value).decode()}})
        return self.refuse()

    def do_POST(self):
        self.refuse()

    def refuse(self):
        self.reply(403, {"error": {"code": 403, "message": "does not have storage.objects.get access"}})


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    Handler.secret_name = sys.argv[2]
    with open(sys.argv[3], "rb") as f:
        Handler.secret_value = f.read()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
