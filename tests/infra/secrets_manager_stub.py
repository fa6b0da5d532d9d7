"""A stand-in for AWS Secrets Manager's GetSecretValue, the one call a cluster node makes (its munge
key), for tests/infra/cluster_cloud_init_test.sh: no AWS service can run here, so this answers the
AWS CLI's JSON request on a local address. It holds one secret and logs each request, so the test
can count the nodes that asked. A fake: it does not check the request's signature.
    python3 secrets_manager_stub.py ADDRESS PORT_FILE SECRET_ID VALUE_FILE LOG_FILE
The port it listens on is written to PORT_FILE once it listens.
"""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

address, port_file, secret_id, value_file, log_file = sys.argv[1:6]
with open(value_file) as f:
    value = f.read()


class Handler(BaseHTTPRequestHandler):
    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.1")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            request = {}
        target = self.headers.get("X-Amz-Target", "")
        with open(log_file, "a") as log:
            log.write(json.dumps({"client": self.client_address[0], "target": target,
                                  "secret": request.get("SecretId")}) + "\n")
        if target != "secretsmanager.GetSecretValue":
            self.reply(400, {"__type": "InvalidRequestException", "message": f"unsupported {target}"})
        elif request.get("SecretId") != secret_id:
            self.reply(400, {"__type": "ResourceNotFoundException",
                             "message": "Secrets Manager can't find the specified secret."})
        else:
            self.reply(200, {"ARN": secret_id, "Name": secret_id.rsplit(":", 1)[-1], "SecretString": value,
                             "VersionId": "00000000-0000-0000-0000-000000000001", "VersionStages": ["AWSCURRENT"],
                             "CreatedDate": 1.7e9})

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer((address, 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
# The rename is the readiness signal: the file is whole once it is there.
os.replace(port_file + ".tmp", port_file)
server.serve_forever()
