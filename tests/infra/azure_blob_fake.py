"""A FAKE of Azure Blob Storage and of the VM's instance metadata service, for
tests/infra/storage_azure_test.sh. No Azure Blob emulator can be installed on the project's machines
(Azurite comes from npm, which they cannot reach), so this is what stands in, and it proves less:
it holds the uploader to the requests Azure's REST documentation asks for (Put Blob's
x-ms-blob-type, an x-ms-version, a SAS or a bearer token, the blob name percent-encoded in the
path) and answers as it documents (201 Created, 404 with x-ms-error-code BlobNotFound, 403
AuthenticationFailed, 400 for a missing header); whether Azure itself accepts them is not tested
here (infra/README.md). Every request is logged with the headers that matter.

usage: azure_blob_fake.py PORT_FILE [SAS_SIGNATURE]
  PUT /CONTAINER?restype=container                       Create Container
  PUT /CONTAINER/BLOB, GET /CONTAINER/BLOB               Put Blob, Get Blob (kept in memory)
  GET /CONTAINER?restype=container&comp=list&prefix=P    List Blobs (one page)
  GET /metadata/identity/oauth2/token?...resource=https://storage.azure.com/  (Metadata: true)
A SAS passes when its sig is SAS_SIGNATURE (default fake-signature: the fake checks no HMAC).
"""
import http.server
import json
import os
import sys
import urllib.parse
from xml.sax.saxutils import escape

TOKEN = "fake-managed-identity-token"
SAS_SIGNATURE = "fake-signature"


class Handler(http.server.BaseHTTPRequestHandler):
    blobs = {}
    containers = set()
    sas_signature = SAS_SIGNATURE

    def log_message(self, fmt, *args):
        print(fmt % args, "|", "x-ms-version=" + str(self.headers.get("x-ms-version")),
              "x-ms-blob-type=" + str(self.headers.get("x-ms-blob-type")),
              "auth=" + ("bearer" if self.headers.get("Authorization") else "none"), flush=True)

    def reply(self, code, body=b"", error=None):
        self.send_response(code)
        if error:
            self.send_header("x-ms-error-code", error)
            body = f'<?xml version="1.0" encoding="utf-8"?><Error><Code>{error}</Code></Error>'.encode()
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def split(self):
        url = urllib.parse.urlsplit(self.path)
        return urllib.parse.unquote_to_bytes(url.path), urllib.parse.parse_qs(url.query)

    def authorized(self, query):
        if query.get("sig") == [self.sas_signature]:
            return True
        return self.headers.get("Authorization") == f"Bearer {TOKEN}"

    def checked(self, query):
        """None when the request may go on; else the answer has been sent."""
        if not self.headers.get("x-ms-version"):
            self.reply(400, error="MissingRequiredHeader")
            return False
        if not self.authorized(query):
            self.reply(403, error="AuthenticationFailed")
            return False
        return True

    def do_GET(self):
        path, query = self.split()
        if path == b"/metadata/identity/oauth2/token":
            if self.headers.get("Metadata") != "true" or query.get("resource") != ["https://storage.azure.com/"]:
                return self.reply(400, json.dumps({"error": "invalid_request"}).encode())
            return self.reply(200, json.dumps({"access_token": TOKEN, "expires_in": "3599"}).encode())
        if not self.checked(query):
            return None
        if query.get("restype") == ["container"] and query.get("comp") == ["list"]:
            return self.list_blobs(path, query.get("prefix", [""])[0].encode())
        if path not in self.blobs:
            return self.reply(404, error="BlobNotFound")
        return self.reply(200, self.blobs[path])

    def do_PUT(self):
        path, query = self.split()
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if not self.checked(query):
            return None
        if query.get("restype") == ["container"]:
            self.containers.add(path)
            return self.reply(201)
        if path.split(b"/")[1] not in {c.strip(b"/") for c in self.containers}:
            return self.reply(404, error="ContainerNotFound")
        if self.headers.get("x-ms-blob-type") != "BlockBlob":
            return self.reply(400, error="MissingRequiredHeader")
        self.blobs[path] = body
        return self.reply(201)


    def list_blobs(self, container, prefix):
        start = container.rstrip(b"/") + b"/"
        names = sorted(p[len(start):] for p in self.blobs if p.startswith(start + prefix))
        items = "".join(f"<Blob><Name>{escape(n.decode('utf-8', 'surrogateescape'))}</Name></Blob>" for n in names)
        body = (f'<?xml version="1.0" encoding="utf-8"?><EnumerationResults><Blobs>{items}</Blobs>'
                "<NextMarker /></EnumerationResults>")
        return self.reply(200, body.encode("utf-8", "surrogateescape"))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    if len(sys.argv) == 3:
        Handler.sas_signature = sys.argv[2]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()


if __name__ == "__main__":
    main()
