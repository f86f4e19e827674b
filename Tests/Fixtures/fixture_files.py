"""What the fixture writers (make-*-fixtures.py) share: files and relative links written
under Tests/Fixtures, and a tree started afresh with a README that says what it is."""
import os, shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, text):
    """`text` (str, its undecodable bytes kept; or bytes) into `path`, its folders made."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)


def link(path, target):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def fresh(name, readme, writer):
    """Tests/Fixtures/NAME emptied, with a README.md of `readme` naming the `writer` script."""
    root = os.path.join(HERE, name)
    shutil.rmtree(root, ignore_errors=True)
    write(os.path.join(root, "README.md"), readme + "\n(Written by %s.)\n" % writer)
    return root
