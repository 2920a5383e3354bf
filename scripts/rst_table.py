"""reStructuredText for the scripts that write doc/: one simple table from rows, and a section of
a document written between two marker comments."""

import re


def table(rows, header):
    """rows (lists of cells) under header, each column as wide as its widest cell."""
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = "  ".join("=" * w for w in widths)
    out = [line, "  ".join(str(h).ljust(w) for h, w in zip(header, widths)), line]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    out.append(line)
    return "\n".join(out)


def replace_section(path, name, lines):
    """Writes lines into path between the comments '.. NAME begin' and '.. NAME end', replacing
    what was there; appends the section (with its markers) when path has none."""
    begin, end = ".. %s begin" % name, ".. %s end" % name
    block = begin + "\n\n" + "\n".join(lines) + "\n" + end + "\n"
    with open(path) as f:
        text = f.read()
    if begin in text and end in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end) + "\n?", lambda m: block, text,
                      flags=re.S)
    else:
        text = text.rstrip("\n") + "\n\n" + block
    with open(path, "w") as f:
        f.write(text)
