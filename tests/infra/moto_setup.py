"""Prepares a moto server (tests/infra/moto.sh starts it) as the infra tests' AWS: an IAM user whose
policy allows what the runner and the cluster nodes do (S3 objects, reading one secret), its access
key, the results bucket and, when asked, a Secrets Manager secret. moto authenticates every request
after the first three (INITIAL_NO_AUTH_ACTION_COUNT=3: create the user, give it its policy, make its
key), so from then on a wrong key is refused as AWS refuses it. Prints shell assignments.

usage: moto_setup.py ENDPOINT BUCKET [SECRET_NAME SECRET_FILE]
"""
import json
import shlex
import sys

import boto3

UNAUTHENTICATED_CALLS = 3  # moto.sh starts the server with INITIAL_NO_AUTH_ACTION_COUNT set to this

POLICY = {
    "Version": "2012-10-17",
    "Statement": [
        {"Effect": "Allow", "Action": ["s3:*"], "Resource": "*"},
        {"Effect": "Allow", "Action": ["secretsmanager:CreateSecret", "secretsmanager:GetSecretValue"], "Resource": "*"},
    ],
}


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    endpoint, bucket = sys.argv[1], sys.argv[2]
    region = "us-east-1"
    # Any key passes the first UNAUTHENTICATED_CALLS requests; these three are exactly those.
    iam = boto3.client("iam", endpoint_url=endpoint, region_name=region, aws_access_key_id="setup",
                       aws_secret_access_key="setup")
    iam.create_user(UserName="perfzero-runner")
    iam.put_user_policy(UserName="perfzero-runner", PolicyName="results", PolicyDocument=json.dumps(POLICY))
    key = iam.create_access_key(UserName="perfzero-runner")["AccessKey"]
    signed = {"endpoint_url": endpoint, "region_name": region, "aws_access_key_id": key["AccessKeyId"],
              "aws_secret_access_key": key["SecretAccessKey"]}
    boto3.client("s3", **signed).create_bucket(Bucket=bucket)
    print(f"AWS_ACCESS_KEY_ID={shlex.quote(key['AccessKeyId'])}")
    print(f"AWS_SECRET_ACCESS_KEY={shlex.quote(key['SecretAccessKey'])}")
    if len(sys.argv) == 5:
        with open(sys.argv[4]) as f:
            value = f.read()
        arn = boto3.client("secretsmanager", **signed).create_secret(Name=sys.argv[3], SecretString=value)["ARN"]
        print(f"MOTO_SECRET_ARN={shlex.quote(arn)}")


if __name__ == "__main__":
    main()
