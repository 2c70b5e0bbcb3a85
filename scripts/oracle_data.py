#!/usr/bin/env python3
"""The oracle data of the tests: python-chess's source distribution on PyPI.

`chess==1.11.2`'s sdist ships, in its data/ folder, tables nobody here wrote: Syzygy WDL/DTZ
for every 3-/4-man endgame (data/syzygy/regular), Gaviota DTM for the 3-man ones
(data/gaviota, with the MD5 list of the whole Gaviota set in MD5SUMS.txt) and the mate-distance
EPD suites (data/endgame-dm-4.epd, data/endgame-dm-5.epd). This module downloads it once with
pip, checks its SHA-256, and unpacks its data/ folder into a cache; a further directory of
Gaviota tables (the 4-man ones, which no package ships) is checked file by file against the
MD5 list.

usage: oracle_data.py CACHE_DIR    (prints the path of the unpacked data/ folder)
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

SDIST = "chess==1.11.2"
SDIST_FILE = "chess-1.11.2.tar.gz"
SDIST_SHA256 = "a8b43e5678fdb3000695bdaa573117ad683761e5ca38e591c4826eba6d25bb39"
ROOT = "chess-1.11.2"


class OracleDataError(Exception):
    """The oracle data cannot be had or does not check out."""


def digest_of(path, algorithm):
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sdist_data(cache):
    """The data/ folder of python-chess's sdist in `cache`, downloaded and verified if it is
    not there yet."""
    root = os.path.join(cache, ROOT)
    data = os.path.join(root, "data")
    done = os.path.join(root, ".verified")
    if os.path.exists(done):
        return data
    os.makedirs(cache, exist_ok=True)
    archive = os.path.join(cache, SDIST_FILE)
    if not os.path.exists(archive) or digest_of(archive, "sha256") != SDIST_SHA256:
        print(f"oracle data: downloading the {SDIST} source distribution into {cache}",
              file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(dir=cache) as tmp:
            cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "--no-binary", ":all:", "--disable-pip-version-check", SDIST, "-d", tmp]
            if subprocess.run(cmd).returncode != 0:
                raise OracleDataError(f"pip could not download {SDIST}")
            shutil.move(os.path.join(tmp, SDIST_FILE), archive)
    got = digest_of(archive, "sha256")
    if got != SDIST_SHA256:
        raise OracleDataError(f"{archive}: sha256 {got}, expected {SDIST_SHA256}")
    # Unpacked beside the cache's folder and renamed onto it once whole and marked verified:
    # tests run at the same time (each calls this script) never see a folder half unpacked,
    # nor one that another run is removing.
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers()
                       if m.name.startswith(ROOT + "/data/") and m.isfile()
                       and ".." not in m.name.split("/")]
            tar.extractall(tmp, members=members)
        open(os.path.join(tmp, ROOT, ".verified"), "w").close()
        try:
            os.rename(os.path.join(tmp, ROOT), root)
        except OSError:
            if not os.path.exists(done):
                # A folder left by a run killed while unpacking (no mark): replaced.
                shutil.rmtree(root, ignore_errors=True)
                os.rename(os.path.join(tmp, ROOT), root)
            # Else another run unpacked it meanwhile: that one is used.
    return data


def gaviota_md5s(data):
    """File name -> MD5 of every Gaviota table, from the sdist's list."""
    md5s = {}
    with open(os.path.join(data, "gaviota", "MD5SUMS.txt")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                md5s[parts[1].lstrip("*")] = parts[0]
    return md5s


def check_gaviota_dir(data, directory, names):
    """Checks that `directory` holds the Gaviota tables `names` (e.g. "kqkr") with the MD5 the
    sdist lists for them."""
    md5s = gaviota_md5s(data)
    for name in names:
        path = os.path.join(directory, name + ".gtb.cp4")
        if not os.path.exists(path):
            raise OracleDataError(f"{directory}: {name}.gtb.cp4 is missing")
        if digest_of(path, "md5") != md5s.get(name + ".gtb.cp4"):
            raise OracleDataError(f"{path}: MD5 differs from python-chess's MD5SUMS.txt")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        print(sdist_data(sys.argv[1]))
    except OracleDataError as e:
        sys.exit(f"oracle_data.py: {e}")
