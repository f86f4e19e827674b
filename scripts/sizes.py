#!/usr/bin/env python3
"""The size rule of docs/architecture.md ("Small units"): no source file over 400 lines and
no function over 80, Swift and C alike. Run by the test command.

    scripts/sizes.py [--max-file-lines N] [--max-function-lines N] [FOLDER...]

FOLDER: what to check (default: Sources). Prints one line per unit over its limit
("PATH: N lines (limit 400)", "PATH:LINE NAME: N lines (limit 80)") and exits 1 when there
is one, 0 otherwise. A function's lines run from its declaration to its closing brace,
nested functions and closures included; braces in strings, character literals and
comments do not count.
"""
import os
import re
import sys

SWIFT_DECLARATION = re.compile(
    r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*'
    r'(?:(?:public|private|fileprivate|internal|package|open|static|class|mutating|nonmutating|'
    r'override|final|convenience|required|nonisolated|consuming|borrowing|dynamic)(?:\([^)]*\))?\s+)*'
    r'(func\s+[^\s(<]+|init[?!]?|deinit|subscript)(?=[\s(<{]|$)')
# A C function definition starts at the line's first column: a return type, then the name
# and its parameters (perhaps over several lines), never ending in `;` (a declaration).
C_DECLARATION = re.compile(r'^(?!(?:typedef|struct|enum|union|return|else|if|for|while|switch)\b)'
                           r'[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(')


def code_only(line, state):
    """`line` without its comments, strings and character literals; `state` carries a
    block comment or a Swift multi-line string over lines."""
    out = []
    i = 0
    while i < len(line):
        if state['block']:
            end = line.find('*/', i)
            if end < 0:
                return ''.join(out)
            state['block'] = False
            i = end + 2
            continue
        if state['multiline']:
            end = line.find('"""', i)
            if end < 0:
                return ''.join(out)
            state['multiline'] = False
            i = end + 3
            continue
        if line.startswith('//', i):
            break
        if line.startswith('/*', i):
            state['block'] = True
            i += 2
            continue
        if line.startswith('"""', i):
            state['multiline'] = True
            i += 3
            continue
        ch = line[i]
        if ch in '"\'':
            j = i + 1
            while j < len(line) and line[j] != ch:
                j += 2 if line[j] == '\\' else 1
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return ''.join(out)


def function_lengths(lines, is_swift):
    """(line number, name, length) of each top-level-of-its-own function in `lines`."""
    state = {'block': False, 'multiline': False}
    code = [code_only(line, state) for line in lines]
    found = []
    i = 0
    while i < len(lines):
        match = (SWIFT_DECLARATION if is_swift else C_DECLARATION).match(code[i])
        if not match or (not is_swift and code[i].rstrip().endswith(';')):
            i += 1
            continue
        depth = 0
        opened = False
        j = i
        while j < len(lines):
            text = code[j]
            if not opened and text.rstrip().endswith(';') and '{' not in text:
                break
            for ch in text:
                if ch == '{':
                    depth += 1
                    opened = True
                elif ch == '}':
                    depth -= 1
            if opened and depth <= 0:
                break
            # A Swift protocol requirement: a declaration without a body.
            if is_swift and not opened and j > i and SWIFT_DECLARATION.match(code[j]):
                break
            j += 1
        if opened:
            found.append((i + 1, match.group(1).replace('func ', '').strip(), j - i + 1))
            # Nested functions count in the one around them, not again on their own.
            i = j + 1
        else:
            i += 1
    return found


def main(argv):
    max_file, max_function, folders = 400, 80, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ('--max-file-lines', '--max-function-lines') and args:
            value = args.pop(0)
            if not value.isdigit():
                print(f'sizes.py: {a} takes a whole number', file=sys.stderr)
                return 2
            if a == '--max-file-lines':
                max_file = int(value)
            else:
                max_function = int(value)
        elif a in ('-h', '--help'):
            print(__doc__.strip())
            return 0
        elif a.startswith('-'):
            print(f'sizes.py: unknown option {a}', file=sys.stderr)
            return 2
        else:
            folders.append(a)
    folders = folders or ['Sources']
    over = []
    files = 0
    for folder in folders:
        if not os.path.isdir(folder):
            print(f'sizes.py: {folder}: not a folder', file=sys.stderr)
            return 2
        for root, dirs, names in os.walk(folder):
            dirs.sort()
            # An Embedded twin's folder links to its module's: checked there.
            dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
            for name in sorted(names):
                if not name.endswith(('.swift', '.c', '.h')):
                    continue
                path = os.path.join(root, name)
                if os.path.islink(path):
                    continue
                files += 1
                with open(path, encoding='utf-8', errors='replace') as f:
                    lines = f.read().split('\n')
                if lines and lines[-1] == '':
                    lines.pop()
                if len(lines) > max_file:
                    over.append(f'{path}: {len(lines)} lines (limit {max_file})')
                for line, fn, length in function_lengths(lines, name.endswith('.swift')):
                    if length > max_function:
                        over.append(f'{path}:{line} {fn}: {length} lines (limit {max_function})')
    for line in over:
        print(line)
    if over:
        print(f'sizes.py: {len(over)} of the units in {files} files over their limits', file=sys.stderr)
        return 1
    print(f'sizes.py: {files} files, none over {max_file} lines, no function over {max_function}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
