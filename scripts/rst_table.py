"""One reStructuredText simple table from rows, shared by the scripts that write doc/ tables."""


def table(rows, header):
    """rows (lists of cells) under header, each column as wide as its widest cell."""
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = "  ".join("=" * w for w in widths)
    out = [line, "  ".join(str(h).ljust(w) for h, w in zip(header, widths)), line]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    out.append(line)
    return "\n".join(out)
