#!/usr/bin/env python3
"""The vendored swift-argument-parser (Vendor/swift-argument-parser/README.sysstats.md) is
upstream's files at one tag plus sysstats.patch, and nothing else.

  scripts/vendor-argument-parser.py --check
  scripts/vendor-argument-parser.py --rebuild UPSTREAM
  scripts/vendor-argument-parser.py --write-manifest UPSTREAM [--tag TAG]
  scripts/vendor-argument-parser.py --write-patch UPSTREAM

UPSTREAM: a git clone of https://github.com/apple/swift-argument-parser (bare or not) that
has the tag. The tag, its commit and the SHA-256 of each upstream file sysstats keeps are
in Vendor/swift-argument-parser/upstream.sha256 (the manifest).

--check (the test suite runs it, offline, without upstream): takes sysstats.patch back out
of the vendored files, in memory, and compares the file set and every file's SHA-256 with
the manifest. One line per difference and status 1; a one-line summary and status 0.
--rebuild: recreates the vendored tree from UPSTREAM's tag (checked against the manifest)
with the patch applied; README.sysstats.md, sysstats.patch and the manifest stay.
--write-manifest: the manifest from UPSTREAM at TAG (default: the manifest's tag), for a
move to a newer release. --write-patch: sysstats.patch from the manifest's tag in UPSTREAM
to the vendored tree as it is now (after a change made by hand).

What is kept of upstream: the folders in FOLDERS with symbolic links followed (GenerateManual's
GenerateCommon links to ../GenerateCommon), less LEFT_OUT (CMake's lists and the DocC
catalogue, which sysstats does not build), and LICENSE.txt. Python's standard library and git.
"""
import argparse
import difflib
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENDOR_NAME = 'Vendor/swift-argument-parser'
VENDOR = os.path.join(ROOT, VENDOR_NAME)
PATCH = os.path.join(VENDOR, 'sysstats.patch')
MANIFEST = os.path.join(VENDOR, 'upstream.sha256')
README = os.path.join(VENDOR, 'README.sysstats.md')
OURS = {'README.sysstats.md', 'sysstats.patch', 'upstream.sha256'}
FOLDERS = ('Sources/ArgumentParser', 'Sources/ArgumentParserToolInfo',
           'Tools/generate-manual', 'Plugins/GenerateManual')
FILES = ('LICENSE.txt',)
LEFT_OUT = {'CMakeLists.txt', 'Documentation.docc'}
HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


class Failure(Exception):
    """A problem that stops the command, with its message."""


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def text(data):
    return data.decode('utf-8', 'surrogateescape')


def lines_of(string):
    """`string` in lines, each with its '\\n' (the last one perhaps without)."""
    return re.findall(r'[^\n]*\n|[^\n]+', string)


def read_manifest():
    """(tag, commit, {path: sha256}) from upstream.sha256."""
    tag = commit = None
    files = {}
    with open(MANIFEST, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if line.startswith('# tag: '):
                tag = line[len('# tag: '):]
            elif line.startswith('# commit: '):
                commit = line[len('# commit: '):]
            elif line and not line.startswith('#'):
                digest, _, path = line.partition('  ')
                if len(digest) != 64 or not path:
                    raise Failure(f'{VENDOR_NAME}/upstream.sha256:{number}: not "SHA256  PATH"')
                files[path] = digest
    if not tag or not commit:
        raise Failure(f'{VENDOR_NAME}/upstream.sha256: no "# tag:" or "# commit:" line')
    return tag, commit, files


def write_manifest_file(tag, commit, files):
    with open(MANIFEST, 'w', encoding='utf-8') as f:
        f.write('# swift-argument-parser: the upstream files sysstats vendors, at the tag below\n'
                '# (scripts/vendor-argument-parser.py; sha256sum -c reads the lines after these).\n'
                f'# tag: {tag}\n# commit: {commit}\n')
        for path in sorted(files):
            f.write(f'{sha256(files[path])}  {path}\n')


def read_tree(top, skip_top=()):
    """{relative path: bytes} of every file under `top`, symbolic links followed."""
    files = {}
    for here, dirs, names in os.walk(top, followlinks=True):
        dirs.sort()
        for name in sorted(names):
            path = os.path.relpath(os.path.join(here, name), top).replace(os.sep, '/')
            if path not in skip_top:
                with open(os.path.join(here, name), 'rb') as f:
                    files[path] = f.read()
    return files


def git(upstream, *args):
    done = subprocess.run(['git', '-C', upstream, *args], capture_output=True)
    if done.returncode != 0:
        raise Failure(f'git -C {upstream} {" ".join(args)}: {text(done.stderr).strip()}')
    return done.stdout


def upstream_files(upstream, tag):
    """(commit, {path: bytes}): what sysstats keeps of `upstream` at `tag`."""
    try:
        commit = text(git(upstream, 'rev-parse', '--verify', f'refs/tags/{tag}^{{commit}}')).strip()
    except Failure as failure:
        raise Failure(f'{failure}\n(fetch the tag first: git -C {upstream} fetch origin tag {tag})')
    archive = git(upstream, 'archive', '--format=tar', commit)
    with tempfile.TemporaryDirectory() as top:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            if hasattr(tarfile, 'data_filter'):
                tar.extractall(top, filter='data')
            else:
                tar.extractall(top)
        files = {}
        for folder in FOLDERS:
            for path, data in read_tree(os.path.join(top, folder)).items():
                if not LEFT_OUT.intersection(path.split('/')):
                    files[f'{folder}/{path}'] = data
        for name in FILES:
            with open(os.path.join(top, name), 'rb') as f:
                files[name] = f.read()
    return commit, files


def manifest_upstream(upstream):
    """(tag, {path: bytes}) of `upstream` at the manifest's tag, which must match it."""
    tag, commit, manifest = read_manifest()
    found, files = upstream_files(upstream, tag)
    if found != commit:
        print(f'vendor-argument-parser: {upstream}: tag {tag} is commit {found}, not upstream\'s '
              f'{commit} (a re-packed copy?); its files are checked against the manifest')
    differences = compare(files, manifest, f'{upstream} at {tag}: ')
    if differences:
        raise Failure('\n'.join(differences + [
            f'{upstream} at {tag} is not what upstream.sha256 records (a moved tag? --write-manifest)']))
    return tag, files


def parse_patch(string):
    """[(old path or None, new path or None, hunks)] of a unified diff; text around the
    file diffs (a header, git's `diff --git` lines) is skipped, as patch(1) does."""
    files, lines, i = [], lines_of(string), 0
    while i < len(lines):
        if lines[i].startswith('--- ') and i + 1 < len(lines) and lines[i + 1].startswith('+++ '):
            files.append((patch_path(lines[i]), patch_path(lines[i + 1]), []))
            i += 2
        elif lines[i].startswith('@@ ') and files:
            i = parse_hunk(lines, i, files[-1][2])
        else:
            i += 1
    return files


def patch_path(line):
    """The path of a `---`/`+++` line with its first component dropped (-p1); None for /dev/null."""
    path = line[4:].rstrip('\n').split('\t')[0]
    return None if path == '/dev/null' else path.split('/', 1)[-1]


def parse_hunk(lines, i, hunks):
    """Reads the hunk at lines[i] into `hunks` as (old start, new start, [(tag, line)]);
    returns the index after it."""
    m = HUNK.match(lines[i])
    if not m:
        raise Failure(f'{VENDOR_NAME}/sysstats.patch:{i + 1}: not a hunk header')
    old_left = 1 if m[2] is None else int(m[2])
    new_left = 1 if m[4] is None else int(m[4])
    body = []
    i += 1
    while old_left or new_left or (i < len(lines) and lines[i].startswith('\\')):
        if i >= len(lines):
            raise Failure(f'{VENDOR_NAME}/sysstats.patch: ends inside a hunk')
        line = lines[i] if lines[i] != '\n' else ' \n'
        i += 1
        if line.startswith('\\'):  # "\ No newline at end of file": of the line before
            if body and body[-1][1].endswith('\n'):
                body[-1] = (body[-1][0], body[-1][1][:-1])
            continue
        tag = line[0]
        old_left -= tag in ' -'
        new_left -= tag in ' +'
        if tag not in ' -+' or old_left < 0 or new_left < 0:
            raise Failure(f'{VENDOR_NAME}/sysstats.patch:{i}: does not fit its hunk\'s counts')
        body.append((tag, line[1:]))
    hunks.append((int(m[1]), int(m[3]), body))
    return i


def apply_hunks(lines, hunks, reverse):
    """`lines` with the hunks applied (or taken back out), each exactly where it says."""
    out, at = [], 0
    for number, (old_start, new_start, body) in enumerate(hunks, 1):
        start = new_start if reverse else old_start
        want = [line for tag, line in body if tag in (' +' if reverse else ' -')]
        give = [line for tag, line in body if tag in (' -' if reverse else ' +')]
        index = start - 1 if want else start
        if index < at or lines[index:index + len(want)] != want:
            raise Failure(f'hunk {number} does not {"come back out" if reverse else "apply"} at line {start}')
        out += lines[at:index] + give
        at = index + len(want)
    return out + lines[at:]


def apply_patch(files, patch, reverse):
    """(the files with `patch` applied or taken out, [one line per file it does not fit])."""
    files, problems = dict(files), []
    for old, new, hunks in patch:
        source, target = (new, old) if reverse else (old, new)
        name = target or source
        if source is not None and source not in files:
            problems.append(f'{VENDOR_NAME}/{source}: missing, and sysstats.patch changes it')
            continue
        try:
            lines = apply_hunks(lines_of(text(files[source])) if source else [], hunks, reverse)
        except Failure as failure:
            problems.append(f'{VENDOR_NAME}/{name}: sysstats.patch\'s {failure}')
            continue
        files.pop(source, None)
        if target is not None:
            files[target] = ''.join(lines).encode('utf-8', 'surrogateescape')
        elif lines:
            problems.append(f'{VENDOR_NAME}/{source}: sysstats.patch deletes it, but not all of it')
    return files, problems


def compare(files, manifest, prefix, note=''):
    """One line per path whose presence or SHA-256 differs between `files` and `manifest`."""
    out = []
    for path in sorted(set(files) | set(manifest)):
        if path not in manifest:
            out.append(f'{prefix}{path}: a file upstream.sha256 does not list{note}')
        elif path not in files:
            out.append(f'{prefix}{path}: missing{note}; upstream.sha256 lists it')
        elif sha256(files[path]) != manifest[path]:
            out.append(f'{prefix}{path}: differs from upstream.sha256\'s SHA-256{note}')
    return out


def read_patch():
    with open(PATCH, encoding='utf-8', errors='surrogateescape') as f:
        return parse_patch(f.read())


def check():
    tag, commit, manifest = read_manifest()
    tree = read_tree(VENDOR, skip_top=OURS)
    patch = read_patch()
    unpatched, problems = apply_patch(tree, patch, reverse=True)
    problems += compare(unpatched, manifest, VENDOR_NAME + '/', ' (with sysstats.patch taken out)')
    with open(README, encoding='utf-8') as f:
        readme = f.read()
    if tag not in readme or commit not in readme:
        problems.append(f'{VENDOR_NAME}/README.sysstats.md: does not name tag {tag} and commit {commit}')
    for line in problems:
        print(line)
    if problems:
        return 1
    print(f'vendor-argument-parser: {VENDOR_NAME} is swift-argument-parser {tag} ({commit[:12]}) plus '
          f'sysstats.patch: {len(manifest)} upstream files, {len(patch)} patched')
    return 0


def rebuild(upstream):
    tag, files = manifest_upstream(upstream)
    patch = read_patch()
    patched, problems = apply_patch(files, patch, reverse=False)
    for name in os.listdir(VENDOR):
        if name not in OURS:
            path = os.path.join(VENDOR, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
    for path, data in patched.items():
        os.makedirs(os.path.dirname(os.path.join(VENDOR, path)), exist_ok=True)
        with open(os.path.join(VENDOR, path), 'wb') as f:
            f.write(data)
    if problems:
        print('\n'.join(problems + [f'vendor-argument-parser: {VENDOR_NAME} is {tag} with the rest of '
                                     'sysstats.patch: make those changes by hand (patch -p1 allows offsets), '
                                     'then --write-patch']))
        return 1
    print(f'vendor-argument-parser: rebuilt {VENDOR_NAME} from {upstream} at {tag} plus '
          f'sysstats.patch ({len(patched)} files, {len(patch)} patched)')
    return 0


def write_manifest(upstream, tag):
    tag = tag or read_manifest()[0]
    commit, files = upstream_files(upstream, tag)
    write_manifest_file(tag, commit, files)
    print(f'vendor-argument-parser: wrote upstream.sha256: {len(files)} files of {tag} ({commit})')
    return 0


def diff_lines(old, new, path):
    """A unified diff of one file (None: absent), "\\ No newline at end of file" included."""
    a, b = lines_of(text(old)) if old is not None else [], lines_of(text(new)) if new is not None else []
    out = []
    for line in difflib.unified_diff(a, b, f'a/{path}' if old is not None else '/dev/null',
                                     f'b/{path}' if new is not None else '/dev/null', n=3):
        out.append(line if line.endswith('\n') else line + '\n\\ No newline at end of file\n')
    return out


def write_patch(upstream):
    tag, commit, _ = read_manifest()
    _, files = manifest_upstream(upstream)
    tree = read_tree(VENDOR, skip_top=OURS)
    out, changed = [], 0
    for path in sorted(set(files) | set(tree)):
        lines = diff_lines(files.get(path), tree.get(path), path)
        changed += bool(lines)
        out += lines
    header = (f'sysstats\' change to swift-argument-parser {tag}\n(commit {commit}); README.sysstats.md\n'
              'says why. Written by scripts/vendor-argument-parser.py --write-patch; it applies in\n'
              'this folder with `patch -p1` or `git apply`.\n\n')
    with open(PATCH, 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(header + ''.join(out))
    print(f'vendor-argument-parser: wrote sysstats.patch: the files that differ from {tag}: {changed}')
    return 0


def main(argv):
    parser = argparse.ArgumentParser(prog='vendor-argument-parser.py', description=__doc__.split('\n\n')[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument('--check', action='store_true', help='the vendored tree is the tag plus the patch')
    mode.add_argument('--rebuild', metavar='UPSTREAM', help='recreate the tree from UPSTREAM plus the patch')
    mode.add_argument('--write-manifest', metavar='UPSTREAM', help='upstream.sha256 from UPSTREAM at --tag')
    mode.add_argument('--write-patch', metavar='UPSTREAM', help='sysstats.patch from UPSTREAM to the tree')
    parser.add_argument('--tag', help='with --write-manifest: the tag (default: the manifest\'s)')
    args = parser.parse_args(argv)
    try:
        if args.check:
            return check()
        if args.rebuild:
            return rebuild(args.rebuild)
        if args.write_manifest:
            return write_manifest(args.write_manifest, args.tag)
        return write_patch(args.write_patch)
    except (Failure, OSError) as failure:
        print(f'vendor-argument-parser: {failure}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
