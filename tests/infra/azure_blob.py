"""Blob Storage client for tests/infra/runner_azure_test.sh: an account SAS for a test account (signed
as Azure signs one: Azurite checked it once; tests/infra/azure_blob_fake.py takes its signature as
given), and putting, getting and listing blobs with it (urllib, no Azure SDK).
    azure_blob.py ENDPOINT sas | mkcontainer C | put C BLOB FILE | get C BLOB FILE | list C [PREFIX]
"""
import base64, datetime, hashlib, hmac, os, sys, urllib.parse, urllib.request, re

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
VERSION = "2020-10-02"


def sas():
    # One SAS for the whole test (its expiry is in its signature): the fake takes the one it was given.
    if os.environ.get("AZURE_BLOB_SAS"):
        return os.environ["AZURE_BLOB_SAS"]
    expiry = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
    fields = {"sv": VERSION, "ss": "b", "srt": "sco", "sp": "rwdlac", "se": expiry, "spr": "https,http"}
    to_sign = "\n".join([ACCOUNT, fields["sp"], fields["ss"], fields["srt"], "", fields["se"], "", fields["spr"],
                         fields["sv"], ""])
    sig = base64.b64encode(hmac.new(base64.b64decode(KEY), to_sign.encode(), hashlib.sha256).digest()).decode()
    return urllib.parse.urlencode({**fields, "sig": sig})


def call(method, url, data=None):
    req = urllib.request.Request(url, data=data, method=method, headers={"x-ms-version": VERSION})
    if method == "PUT" and "restype=container" not in url:
        req.add_header("x-ms-blob-type", "BlockBlob")
    with urllib.request.urlopen(req) as r:
        return r.read()


def main():
    endpoint, command = sys.argv[1], sys.argv[2]
    if command == "sas":
        print(sas())
    elif command == "mkcontainer":
        call("PUT", f"{endpoint}/{sys.argv[3]}?restype=container&{sas()}")
    elif command == "put":  # CONTAINER BLOB FILE
        call("PUT", f"{endpoint}/{sys.argv[3]}/{urllib.parse.quote(sys.argv[4])}?{sas()}", open(sys.argv[5], "rb").read())
    elif command == "get":  # CONTAINER BLOB FILE
        open(sys.argv[5], "wb").write(call("GET", f"{endpoint}/{sys.argv[3]}/{urllib.parse.quote(sys.argv[4])}?{sas()}"))
    elif command == "list":  # CONTAINER [PREFIX]
        prefix = sys.argv[4] if len(sys.argv) > 4 else ""
        marker = ""
        while True:
            xml = call("GET", f"{endpoint}/{sys.argv[3]}?restype=container&comp=list&prefix={urllib.parse.quote(prefix)}"
                              f"&marker={urllib.parse.quote(marker)}&{sas()}").decode()
            for name in re.findall(r"<Name>([^<]*)</Name>", xml):
                print(name)
            marker = (re.findall(r"<NextMarker>([^<]*)</NextMarker>", xml) or [""])[0]
            if not marker:
                break


if __name__ == "__main__":
    main()
